import { z } from 'zod';
import { listEnvelope, okEnvelope } from '../../http/responses.ts';
import { tariffBlock, tariffItemRecord } from '../tariffs/tariffs.model.ts';

export const tariffItemResponses = {
  list: listEnvelope(tariffItemRecord, "A page of the tariff's items", 10),
  created: okEnvelope(z.array(tariffItemRecord), 'The new items, in the order sent'),
  item: okEnvelope(tariffItemRecord, 'The item'),
};

export const tariffBlockResponses = {
  list: listEnvelope(tariffBlock, "The item's tiers, by block_index", 1),
  replaced: okEnvelope(z.array(tariffBlock), "The item's new tiers, by block_index"),
  block: okEnvelope(tariffBlock, 'The tier'),
};
