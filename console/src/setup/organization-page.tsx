import { useEffect } from 'react';
import { api, read } from '../api/client.ts';
import { Link } from '../lib/router.tsx';
import { useOrganization } from '../organization.tsx';
import { Field, SetupForm, textOf } from './form-kit.tsx';
import { Members } from './members.tsx';

/** The organization: "Edit organization" (its name) and its members; "New organization" from here. */
export function OrganizationPage() {
  const { current, canWrite, reload } = useOrganization();
  useEffect(() => {
    document.title = `${current.name} · Utility Management Console`;
  }, [current.name]);
  const rename = async (data: FormData) => {
    await read(
      api.PUT('/api/v1/organizations/{id}', {
        params: { path: { id: current.id } },
        body: { name: textOf(data, 'name') ?? '' },
      }),
    );
    reload();
  };
  return (
    <>
      <h1>{current.name}</h1>
      <p>
        <Link href="/organizations/new">New organization</Link>
      </p>
      {canWrite && (
        <section aria-labelledby="edit-organization-heading">
          <h2 id="edit-organization-heading">Edit organization</h2>
          <SetupForm label="Edit organization" submit="Save organization" onSubmit={rename}>
            <Field label="Name" name="name" required maxLength={200} defaultValue={current.name} />
          </SetupForm>
        </section>
      )}
      <Members />
    </>
  );
}
