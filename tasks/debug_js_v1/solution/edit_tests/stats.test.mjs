import { test } from 'node:test';

test('stats', () => {});
