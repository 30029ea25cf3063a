import { Link } from '../lib/router.tsx';
import { tariffName } from '../lib/tariff-names.ts';
import { useResource } from '../lib/use-resource.ts';

/** A link to a tariff, named by its name (its number until the name is known). */
export function TariffLink({
  id,
  accountId,
  catalogue = false,
}: {
  id: number;
  accountId: string;
  catalogue?: boolean;
}) {
  const name = useResource(() => tariffName(id, accountId, catalogue), [id, accountId, catalogue]);
  return (
    <Link href={`/${catalogue ? 'catalogue' : 'tariffs'}/${id}`} data-tariff-id={id}>
      {name.data ?? `${catalogue ? 'catalogue tariff' : 'tariff'} ${id}`}
    </Link>
  );
}
