import { PGlite } from '@electric-sql/pglite';
const t=Date.now(); const db = await PGlite.create(); console.log('create', Date.now()-t);
console.log((await db.query('select version(), $1::int as x',[5])).rows);
const r = await db.query("select now()::timestamptz as n, 1.50::numeric as p, 2::bigint as b"); console.log(r.rows, r.fields);
const t2=Date.now(); const dump = await db.dumpDataDir('none'); console.log('dump', Date.now()-t2, dump.size);
const t3=Date.now(); const db2 = await PGlite.create({loadDataDir: dump}); await db2.query('select 1'); console.log('load', Date.now()-t3);
