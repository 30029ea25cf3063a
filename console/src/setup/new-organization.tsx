import { useEffect } from 'react';
import { api, read } from '../api/client.ts';
import type { Organization } from '../api/models.ts';
import { session } from '../api/session.ts';
import { navigate } from '../lib/router.tsx';
import { useOrganization } from '../organization.tsx';
import { Field, SetupForm, textOf } from './form-kit.tsx';

/** "New organization": the signed-in user becomes its owner, and the console switches to it. */
export function NewOrganizationPage() {
  const { select, reload } = useOrganization();
  useEffect(() => {
    document.title = 'New organization · Utility Management Console';
  }, []);
  const create = async (data: FormData) => {
    const created = await read<Organization>(
      api.POST('/api/v1/organizations', {
        body: { name: textOf(data, 'name') ?? '', primary_owner_user_id: session.user()?.id ?? '' },
      }),
    );
    select(created.id);
    reload();
    navigate('/buildings');
  };
  return (
    <>
      <h1>New organization</h1>
      <p>You become its owner. Add its members, buildings, meters and tariffs next.</p>
      <SetupForm label="New organization" submit="Create organization" busyLabel="Creating…" onSubmit={create}>
        <Field label="Name" name="name" required maxLength={200} autoComplete="organization" />
      </SetupForm>
    </>
  );
}
