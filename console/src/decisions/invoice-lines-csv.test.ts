import { describe, expect, it } from 'vitest';
import type { TariffItemType } from '../api/models.ts';
import { readInvoiceLines } from './invoice-lines-csv.ts';

const types = new Map(
  [
    { code: 'SERVICE', displayName: 'Service charge', unit: 'day' },
    { code: 'ENERGY', displayName: 'Active energy', unit: 'kWh' },
  ].map((type) => [type.code, type as TariffItemType]),
);

describe('invoice lines from a CSV', () => {
  it('reads comma-separated lines by their column names, in any order and case', () => {
    const csv =
      'Amount,Description,Unit,Quantity,item_type_code\n101.37,Service charge,day,31,SERVICE\n50,Late payment fee,,,\n';
    expect(readInvoiceLines(csv, types)).toEqual({
      lines: [
        { description: 'Service charge', code: 'SERVICE', quantity: '31', unit: 'day', amount: '101.37' },
        { description: 'Late payment fee', code: '', quantity: '', unit: '', amount: '50' },
      ],
    });
  });

  it('reads semicolons with decimal commas, a charge by its name, and prices quantity × rate without an amount', () => {
    const csv = 'description;charge;quantity;unit;rate\r\nEnergy, peak;Active energy;1200,5;kWh;2,1\r\n';
    expect(readInvoiceLines(csv, types)).toEqual({
      lines: [{ description: 'Energy, peak', code: 'ENERGY', quantity: '1200,5', unit: 'kWh', amount: '2521.05' }],
    });
  });

  it('names the line of the CSV that is not right', () => {
    const head = 'description,quantity,amount\nService charge,31,101.37\n';
    expect(readInvoiceLines(`${head}Energy,lots,9\n`, types)).toEqual({
      problem: 'Line 3 of the CSV: write the quantity as a number, or nothing, not "lots".',
    });
    expect(readInvoiceLines(`${head}\nEnergy,12,abc\n`, types)).toEqual({
      problem: 'Line 4 of the CSV: write the amount as a number, such as 9435.75, not "abc".',
    });
    expect(readInvoiceLines(`${head},1,2\n`, types)).toEqual({
      problem: 'Line 3 of the CSV: write what the charge is.',
    });
    expect(readInvoiceLines('description,code,amount\nFee,LATE,5\n', types)).toEqual({
      problem: 'Line 2 of the CSV: "LATE" is not a tariff charge.',
    });
    expect(readInvoiceLines('description,amount\nFee,\n', types)).toEqual({
      problem: 'Line 2 of the CSV: write the amount as a number, such as 9435.75.',
    });
  });

  it('asks for the columns it needs, and for lines', () => {
    expect(readInvoiceLines('quantity,amount\n1,2\n', types)).toEqual({
      problem: 'Line 1 of the CSV: the header needs a description column.',
    });
    expect(readInvoiceLines('description,quantity\nFee,1\n', types)).toEqual({
      problem: 'Line 1 of the CSV: the header needs an amount column, or quantity and unit_price columns.',
    });
    expect(readInvoiceLines('description,amount\n\n', types)).toEqual({
      problem: 'The CSV has a header and no lines.',
    });
  });
});
