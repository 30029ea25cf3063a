import { useEffect, useState } from 'react';
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

/** The address fields: a block under another may leave them blank, taking its parent's. */
const ADDRESS_FIELDS = ['address', 'city', 'state', 'postal_code', 'country'] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number];

/** The fields a block is created or edited with; blank address fields take the parent's. */
function blockFields(data: FormData, blocks: BuildingBlock[]) {
  const parentId = numberOf(data, 'parent_id');
  const parent = blocks.find((b) => b.id === parentId);
  const text = (field: Exclude<AddressField, 'postal_code'>) => textOf(data, field) ?? parent?.[field] ?? '';
  return {
    name: textOf(data, 'name') ?? '',
    building_type: (textOf(data, 'building_type') ?? 'OTHER') as BuildingType,
    address: text('address'),
    city: text('city'),
    state: text('state'),
    postal_code: numberOf(data, 'postal_code') ?? parent?.postal_code ?? 0,
    country: text('country'),
    parent_id: parentId,
    area: numberOf(data, 'area'),
    description: textOf(data, 'description'),
  };
}

const ADDRESS_LABELS: Record<AddressField, string> = {
  address: 'Address',
  city: 'City',
  state: 'Province or state',
  postal_code: 'Postal code',
  country: 'Country',
};

/**
 * The address, required of a top-level block; a block under another (a floor, a unit) may leave
 * each field blank to take its parent's, which the field shows as its placeholder.
 */
function AddressFields({ block, parent }: { block?: BuildingBlock; parent: BuildingBlock | undefined }) {
  const own = (field: AddressField) =>
    block ? String(block[field]) : field === 'country' && !parent ? 'South Africa' : '';
  return (
    <>
      {ADDRESS_FIELDS.map((field) => (
        <Field
          key={`${field}-${parent?.id ?? 'top'}`}
          label={ADDRESS_LABELS[field]}
          name={field}
          required={!parent}
          maxLength={field === 'address' ? 500 : 200}
          {...(field === 'postal_code' ? { inputMode: 'numeric', pattern: '[0-9]{1,9}' } : {})}
          defaultValue={own(field)}
          placeholder={parent ? String(parent[field]) : undefined}
          hint={parent && field === 'address' ? `Blank fields take ${parent.name}'s address.` : undefined}
        />
      ))}
    </>
  );
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
  const [parentId, setParentId] = useState(String(block?.parent_id ?? parent ?? ''));
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
        value={parentId}
        onChange={(e) => setParentId(e.target.value)}
        hint="The block this one belongs to, e.g. the building of a floor."
      />
      <AddressFields block={block} parent={blocks.find((b) => String(b.id) === parentId)} />
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
      api.POST('/api/v1/building_blocks', {
        body: { account_id: current.id, ...blockFields(data, blocks.data ?? []) },
      }),
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
        body: { account_id: current.id, ...blockFields(data, blocks.data ?? []) },
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
