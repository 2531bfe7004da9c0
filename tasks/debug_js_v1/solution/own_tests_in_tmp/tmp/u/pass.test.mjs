import { test } from 'node:test';

test('passes', () => {});
