import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeliveryLog, type LiveDelivery } from '../../../src/core/webhooks/delivery-log.js';

const live = (n: number): LiveDelivery => ({
  id: `del_${n}`,
  webhookId: 'wh_1',
  event: 'task.created',
  body: JSON.stringify({ n }),
  status: 'pending',
  attempts: 0,
  createdAt: '2026-01-15T09:00:00.000Z',
});

describe('delivery log', () => {
  it('keeps the last 100, oldest first', () => {
    const log = new DeliveryLog();
    for (let n = 1; n <= 130; n++) log.add(live(n));
    const list = log.list();
    assert.equal(list.length, 100);
    assert.equal(list[0]?.id, 'del_31');
    assert.equal(list[99]?.id, 'del_130');
  });

  it('lists records as they stand, with the payload that was sent and no unset keys', () => {
    const log = new DeliveryLog();
    const record = live(1);
    log.add(record);
    assert.deepEqual(log.list()[0], {
      id: 'del_1',
      webhookId: 'wh_1',
      event: 'task.created',
      payload: { n: 1 },
      status: 'pending',
      attempts: 0,
      createdAt: '2026-01-15T09:00:00.000Z',
    });
    Object.assign(record, { status: 'success', attempts: 2, responseStatus: 200, lastAttempt: 'x' });
    assert.equal(log.list()[0]?.status, 'success');
    assert.equal(log.list()[0]?.responseStatus, 200);
    assert.equal('error' in (log.list()[0] ?? {}), false);
  });
});
