import { useEffect } from 'react';
import { api, done, read } from '../api/client.ts';
import type { BuildingBlock } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { titleCase } from '../lib/format.ts';
import { Link, navigate, useLocation } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { allBlocks } from './blocks.ts';
import { BUILDING_TYPES } from './enums.ts';
import { Choice, Field, numberOf, optionsOf, Refusal, SetupForm, textOf, useAction } from './form-kit.tsx';

type BuildingType = BuildingBlock['building_type'];

/** The fields a block is created or edited with. */
function blockFields(data: FormData) {
  return {
    name: textOf(data, 'name') ?? '',
    building_type: (textOf(data, 'building_type') ?? 'OTHER') as BuildingType,
    address: textOf(data, 'address') ?? '',
    city: textOf(data, 'city') ?? '',
    state: textOf(data, 'state') ?? '',
    postal_code: numberOf(data, 'postal_code') ?? 0,
    country: textOf(data, 'country') ?? '',
    parent_id: numberOf(data, 'parent_id'),
    area: numberOf(data, 'area'),
    description: textOf(data, 'description'),
  };
}

function BlockFields({
  block,
  blocks,
  parent,
}: {
  block?: BuildingBlock;
  blocks: BuildingBlock[];
  parent: number | null;
}) {
  const parents = [
    { value: '', label: 'None: a top-level block' },
    ...blocks.filter((b) => b.id !== block?.id).map((b) => ({ value: String(b.id), label: b.name })),
  ];
  return (
    <>
      <Field label="Name" name="name" required maxLength={200} defaultValue={block?.name} />
      <Choice
        label="Type"
        name="building_type"
        options={optionsOf(BUILDING_TYPES, titleCase)}
        defaultValue={block?.building_type ?? 'COMMERCIAL'}
      />
      <Choice
        label="Part of"
        name="parent_id"
        options={parents}
        defaultValue={String(block?.parent_id ?? parent ?? '')}
        hint="The block this one belongs to, e.g. the building of a floor."
      />
      <Field label="Address" name="address" required maxLength={500} defaultValue={block?.address} />
      <Field label="City" name="city" required maxLength={200} defaultValue={block?.city} />
      <Field label="Province or state" name="state" required maxLength={200} defaultValue={block?.state} />
      <Field
        label="Postal code"
        name="postal_code"
        required
        inputMode="numeric"
        pattern="[0-9]{1,9}"
        defaultValue={block?.postal_code}
      />
      <Field label="Country" name="country" required maxLength={200} defaultValue={block?.country ?? 'South Africa'} />
      <Field label="Floor area (m²)" name="area" type="number" min={0} step="any" defaultValue={block?.area ?? ''} />
      <Field label="Description" name="description" maxLength={4000} defaultValue={block?.description ?? ''} />
    </>
  );
}

/** "New building block": at the top level, or under the block the query's parent names. */
export function NewBlockPage() {
  const { current } = useOrganization();
  const { query } = useLocation();
  const parent = query.get('parent') ? Number(query.get('parent')) : null;
  const blocks = useResource(() => allBlocks(current.id), [current.id]);
  useEffect(() => {
    document.title = 'New building block · Utility Management Console';
  }, []);
  const create = async (data: FormData) => {
    const created = await read<BuildingBlock>(
      api.POST('/api/v1/building_blocks', { body: { account_id: current.id, ...blockFields(data) } }),
    );
    navigate(`/buildings/${created.id}`);
  };
  return (
    <>
      <h1>New building block</h1>
      <p className="muted">A site, building, floor or tenant area: blocks can sit under other blocks.</p>
      <Async resource={blocks} label="Loading the building blocks…">
        {(list) => (
          <SetupForm label="New building block" submit="Create building block" busyLabel="Creating…" onSubmit={create}>
            <BlockFields blocks={list} parent={parent} />
          </SetupForm>
        )}
      </Async>
    </>
  );
}

function DeleteBlock({ block }: { block: BuildingBlock }) {
  const { current } = useOrganization();
  const remove = useAction(async () => {
    if (!window.confirm(`Delete ${block.name}?`)) return;
    await done(
      api.DELETE('/api/v1/building_blocks/{id}', {
        params: { path: { id: block.id }, query: { account_id: current.id } },
      }),
    );
    navigate('/buildings');
  });
  return (
    <section aria-labelledby="delete-block-heading">
      <h2 id="delete-block-heading">Delete building block</h2>
      <p className="muted">Only a block without blocks or meters under it can be deleted.</p>
      <Refusal error={remove.error} />
      <button type="button" className="danger" disabled={remove.busy} onClick={() => void remove.run()}>
        Delete {block.name}
      </button>
    </section>
  );
}

/** "Edit building block": its fields, a move to another parent, and delete. */
export function EditBlockPage({ id }: { id: number }) {
  const { current } = useOrganization();
  const blocks = useResource(() => allBlocks(current.id), [current.id]);
  useEffect(() => {
    document.title = 'Edit building block · Utility Management Console';
  }, []);
  const save = async (data: FormData) => {
    await read(
      api.PUT('/api/v1/building_blocks/{id}', {
        params: { path: { id } },
        body: { account_id: current.id, ...blockFields(data) },
      }),
    );
    navigate(`/buildings/${id}`);
  };
  return (
    <Async resource={blocks} label="Loading the building block…">
      {(list) => {
        const block = list.find((b) => b.id === id);
        if (!block)
          return (
            <p>
              There is no building block {id} in {current.name}.
            </p>
          );
        return (
          <>
            <p style={{ margin: '0 0 0.5rem' }}>
              <Link href={`/buildings/${id}`}>‹ {block.name}</Link>
            </p>
            <h1>Edit {block.name}</h1>
            <SetupForm label={`Edit ${block.name}`} submit="Save building block" onSubmit={save}>
              <BlockFields block={block} blocks={list} parent={null} />
            </SetupForm>
            <DeleteBlock block={block} />
          </>
        );
      }}
    </Async>
  );
}
