import { api, done, read, readAll } from '../api/client.ts';
import type { Member, Role } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { titleCase } from '../lib/format.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { Choice, Field, optionsOf, Refusal, SetupForm, textOf, useAction } from './form-kit.tsx';

const ROLES: Role[] = ['OWNER', 'ADMIN', 'MEMBER'];
const ROLE_OPTIONS = optionsOf(ROLES, titleCase);

function MemberRow({ member, onChanged }: { member: Member; onChanged: () => void }) {
  const { current, canWrite } = useOrganization();
  const path = { id: current.id, userId: member.user_id };
  const change = useAction(async (role: Role) => {
    await read(api.PUT('/api/v1/organizations/{id}/members/{userId}', { params: { path }, body: { role } }));
    onChanged();
  });
  const remove = useAction(async () => {
    if (!window.confirm(`Remove ${member.email} from ${current.name}?`)) return;
    await done(api.DELETE('/api/v1/organizations/{id}/members/{userId}', { params: { path } }));
    onChanged();
  });
  const roleId = `role-${member.user_id}`;
  const mayChange = canWrite && !member.is_primary_owner;
  return (
    <tr data-email={member.email}>
      <th scope="row" style={{ fontWeight: 400 }}>
        {member.email}
        {member.is_primary_owner && <span className="muted"> (created the organization)</span>}
      </th>
      <td>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void change.run(new FormData(e.currentTarget).get('role') as Role);
          }}
        >
          <label htmlFor={roleId} className="visually-hidden">
            Role of {member.email}
          </label>
          <select id={roleId} name="role" defaultValue={member.role} disabled={!mayChange}>
            {ROLE_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {mayChange && (
            <button type="submit" className="secondary" disabled={change.busy}>
              Change role<span className="visually-hidden"> of {member.email}</span>
            </button>
          )}
        </form>
        <Refusal error={change.error} />
      </td>
      <td>
        {canWrite && !member.is_primary_owner && (
          <button type="button" className="secondary" disabled={remove.busy} onClick={() => void remove.run()}>
            Remove {member.email}
          </button>
        )}
        <Refusal error={remove.error} />
      </td>
    </tr>
  );
}

/** The organization's members: their roles, "Add member" by e-mail, a role changed, a member removed. */
export function Members() {
  const { current, canWrite } = useOrganization();
  const members = useResource(
    () =>
      readAll<Member>((page) =>
        api.GET('/api/v1/organizations/{id}/members', {
          params: { path: { id: current.id }, query: { page, limit: 100, sortBy: 'email', sortOrder: 'asc' } },
        }),
      ),
    [current.id],
  );
  const add = async (data: FormData) => {
    await read(
      api.POST('/api/v1/organizations/{id}/members', {
        params: { path: { id: current.id } },
        body: { email: textOf(data, 'email') ?? '', role: (textOf(data, 'role') ?? 'MEMBER') as Role },
      }),
    );
    members.reload();
  };
  return (
    <section aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      <Async resource={members} label="Loading the members…">
        {(list) => (
          <div className="table-wrap">
            <table data-testid="members">
              <caption className="visually-hidden">Members of {current.name}</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((m) => (
                  <MemberRow key={m.user_id} member={m} onChanged={members.reload} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Async>
      {canWrite && (
        <>
          <h3>Add member</h3>
          <p className="muted">The person must have created an account with this e-mail address.</p>
          <SetupForm label="Add member" submit="Add member" busyLabel="Adding…" onSubmit={add}>
            <Field label="E-mail" name="email" type="email" required autoComplete="off" />
            <Choice label="Role" name="role" options={ROLE_OPTIONS} defaultValue="MEMBER" />
          </SetupForm>
        </>
      )}
    </section>
  );
}
