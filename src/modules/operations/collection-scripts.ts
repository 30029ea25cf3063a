import type { Step } from './collection-plan.ts';

/** The JavaScript accessor of a path in an answer's data: `0.id` → `[0].id`. */
function accessor(path: string): string {
  return path
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('');
}

/** A text with `{{variable}}` references, as a JavaScript expression reading the collection's variables. */
function withVariables(text: string): string {
  const parts = text.split(/\{\{(\w+)\}\}/);
  return parts
    .map((part, index) => (index % 2 === 1 ? `pm.collectionVariables.get('${part}')` : JSON.stringify(part)))
    .filter((part) => part !== '""')
    .join(' + ');
}

/**
 * After signing in: the first organization of the user that is not a personal account (the
 * personal one comes first and holds nothing), else the first, into account_id.
 */
const FIRST_ORGANIZATION = [
  'if (pm.response.code === 200) {',
  '  pm.sendRequest(',
  '    {',
  "      url: pm.collectionVariables.get('baseUrl') + '/api/v1/auth/organizations',",
  "      method: 'GET',",
  "      header: { Authorization: 'Bearer ' + pm.collectionVariables.get('bearerToken') },",
  '    },',
  '    (error, response) => {',
  '      if (error) return;',
  '      const organizations = response.json().data;',
  '      const first = organizations.find((o) => !o.is_personal_account) || organizations[0];',
  "      if (first) pm.collectionVariables.set('account_id', first.id);",
  '    },',
  '  );',
  '}',
];

function deleteAgain({ path, token = 'bearerToken' }: NonNullable<Step['deletesAgain']>): string[] {
  return [
    `if (pm.response.code < 300) {`,
    '  pm.sendRequest(',
    '    {',
    `      url: pm.collectionVariables.get('baseUrl') + ${withVariables(path)},`,
    "      method: 'DELETE',",
    `      header: { Authorization: 'Bearer ' + pm.collectionVariables.get('${token}') },`,
    '    },',
    '    (error, response) => {',
    "      pm.test('deletes what it created again (204)', () => {",
    '        if (error) throw error;',
    "        if (response.code !== 204) throw new Error('answered ' + response.code);",
    '      });',
    '    },',
    '  );',
    '}',
  ];
}

/**
 * The test script of a request: its documented success status, then the ids of what it created
 * into the variables that later requests use.
 */
export function testScript(name: string, status: number, step: Step, signsIn: boolean): string[] {
  const lines = [
    `pm.test('${name.replaceAll("'", "\\'")} answers ${status}', () => pm.response.to.have.status(${status}));`,
  ];
  const stores = Object.entries(step.stores ?? {});
  if (stores.length > 0) {
    lines.push(`if (pm.response.code === ${status}) {`, '  const data = pm.response.json().data;');
    for (const [variable, path] of stores)
      lines.push(`  pm.collectionVariables.set('${variable}', data${accessor(path)});`);
    lines.push('}');
  }
  if (step.deletesAgain) lines.push(...deleteAgain(step.deletesAgain));
  if (signsIn) lines.push(...FIRST_ORGANIZATION);
  return lines;
}
