/**
 * How the collection runs top to bottom against the demo and leaves it as it found it: reads use
 * the demo's records; every write works on records that an earlier request of the collection
 * created (whose ids its test script stored), and those are deleted at the end, in an order that
 * their references allow.
 */

export interface Step {
  /** Variables that stand for these parameters or body fields instead of the usual ones. */
  uses?: Readonly<Record<string, string>>;
  /** Body fields or query parameters written as this text (a Postman dynamic variable in it). */
  writes?: Readonly<Record<string, string>>;
  /** Variables this request's test script stores from its answer's data: variable → path in data. */
  stores?: Readonly<Record<string, string>>;
  /**
   * A record that this request created and its test script deletes again: its path, with
   * variables, and the variable of the token that may delete it (bearerToken when absent).
   */
  deletesAgain?: { path: string; token?: string };
}

/** An address that a run makes its own: Postman writes a new uuid for `{{$guid}}` each time. */
const NEW_EMAIL = 'collection-{{$guid}}@example.com';

export const STEPS: Readonly<Record<string, Step>> = {
  signUp: { writes: { email: NEW_EMAIL }, stores: { signed_up_user_id: 'user.id' } },
  refreshSession: {
    uses: { refresh_token: 'refresh_token' },
    stores: { bearerToken: 'access_token', refresh_token: 'refresh_token' },
  },
  // The user the administration creates is deleted at once; the one signed up, in the clean-up.
  createUser: {
    writes: { email: NEW_EMAIL },
    stores: { new_user_id: 'id' },
    deletesAgain: { path: '/api/v1/admin/users/{{new_user_id}}', token: 'serviceRoleKey' },
  },
  deleteUser: { uses: { id: 'signed_up_user_id' } },
  createOrganization: { stores: { new_account_id: 'id' } },
  updateOrganization: { uses: { id: 'new_account_id' } },
  deleteOrganization: { uses: { id: 'new_account_id' } },
  addMember: { uses: { id: 'new_account_id', userId: 'signed_up_user_id' } },
  updateMemberRole: { uses: { id: 'new_account_id', userId: 'signed_up_user_id' } },
  removeMember: { uses: { id: 'new_account_id', userId: 'signed_up_user_id' } },
  createBuildingBlock: { stores: { new_building_block_id: 'id' } },
  updateBuildingBlock: { uses: { id: 'new_building_block_id' } },
  deleteBuildingBlock: { uses: { id: 'new_building_block_id' } },
  createMeter: { stores: { new_meter_id: 'id', new_meter_sn: 'meter_sn' } },
  updateMeter: { uses: { id: 'new_meter_id' } },
  // The readings that the collection stored go with the meter.
  deleteMeter: { uses: { id: 'new_meter_id' }, writes: { force: 'true' } },
  storeReadings: { uses: { meter_sn: 'new_meter_sn' } },
  // The demo water meter's first interval reading, sent again: nothing changes.
  storeWaterReadings: { writes: { meter_sn: '{{water_meter_sn}}', readings: '{{water_first_reading}}' } },
  // The demo water meter's first read, sent again: nothing changes.
  storeRegisterReads: { uses: { id: 'water_meter_id' }, writes: { reads: '{{water_first_read}}' } },
  listRegisterReads: { uses: { id: 'water_meter_id' } },
  getVolumeProfile: { uses: { meter_sn: 'water_meter_sn' } },
  getVolumeSum: { uses: { meter_sn: 'water_meter_sn' } },
  createGateway: { stores: { new_gateway_id: 'id' } },
  getGateway: { uses: { id: 'new_gateway_id' } },
  updateGateway: { uses: { id: 'new_gateway_id' } },
  rotateGatewayKey: { uses: { id: 'new_gateway_id' } },
  deleteGateway: { uses: { id: 'new_gateway_id' } },
  setDashboardConfig: { uses: { id: 'new_building_block_id' } },
  deleteDashboardConfig: { uses: { id: 'new_building_block_id' } },
  createTariff: { stores: { new_tariff_id: 'id' } },
  updateTariff: { uses: { id: 'new_tariff_id' } },
  deleteTariff: { uses: { id: 'new_tariff_id' } },
  addTariffItems: { uses: { id: 'new_tariff_id' }, stores: { new_tariff_item_id: '0.id' } },
  updateTariffItem: { uses: { id: 'new_tariff_id', itemId: 'new_tariff_item_id' } },
  deleteTariffItem: { uses: { id: 'new_tariff_id', itemId: 'new_tariff_item_id' } },
  replaceTariffItemBlocks: {
    uses: { id: 'new_tariff_id', itemId: 'new_tariff_item_id' },
    stores: { new_tariff_block_id: '0.id' },
  },
  updateTariffItemBlock: {
    uses: { id: 'new_tariff_id', itemId: 'new_tariff_item_id', blockId: 'new_tariff_block_id' },
  },
  deleteTariffItemBlock: {
    uses: { id: 'new_tariff_id', itemId: 'new_tariff_item_id', blockId: 'new_tariff_block_id' },
  },
  createTariffTransition: { uses: { id: 'new_tariff_id' } },
  updateTariffTransition: { uses: { id: 'new_tariff_id' } },
  deleteTariffTransition: { uses: { id: 'new_tariff_id' } },
  // An invoice number is unique in an organization: each run writes its own.
  createInvoice: { writes: { invoice_number: 'INV-{{$guid}}' }, stores: { new_invoice_id: 'id' } },
  replaceInvoice: { uses: { id: 'new_invoice_id' }, writes: { invoice_number: 'INV-{{$guid}}' } },
  // A check records its outcome on the invoice: the run checks its own, never the demo's.
  getInvoiceCheck: { uses: { id: 'new_invoice_id' } },
  deleteInvoice: { uses: { id: 'new_invoice_id' } },
  signIn: { stores: { bearerToken: 'access_token', refresh_token: 'refresh_token' } },
  // One clone, and no request of its own deletes a tariff but the one created above.
  cloneCatalogueTariff: {
    stores: { cloned_tariff_id: 'id' },
    deletesAgain: { path: '/api/v1/tariffs/{{cloned_tariff_id}}?account_id={{account_id}}' },
  },
};

/**
 * The requests of the last folder, in this order: each deletes what the collection created, after
 * what refers to it; signing out ends the run.
 */
export const CLEAN_UP = [
  'deleteInvoice',
  'deleteTariffTransition',
  'deleteTariffItemBlock',
  'deleteTariffItem',
  'deleteTariff',
  'deleteDashboardConfig',
  'deleteGateway',
  'deleteMeter',
  'deleteBuildingBlock',
  'removeMember',
  'deleteOrganization',
  'deleteUser',
  'signOut',
] as const;
