import { describe, expect, it } from 'vitest';
import { canonicalPath, isApiPath } from './request-path';

describe('canonicalPath', () => {
  it.each([
    ['/api/users', '/api/users'],
    ['/%61pi/users', '/api/users'],
    ['/%2561pi/users', '/api/users'],
    ['/%252561pi/users', '/api/users'],
    ['//api//users/', '/api/users'],
    ['/api/./users', '/api/users'],
    ['/x/../api/users', '/api/users'],
    ['/../../api/users', '/api/users'],
    ['/api;x/users;y=1', '/api/users'],
    ['http://evil.example/api/users?q=1', '/api/users'],
    ['HTTP://evil.example', '/'],
    ['/API/Users', '/api/users'],
    ['\\api\\users', '/api/users'],
    ['/api%2fusers', '/api/users'],
    ['/api/users?redirect=/x#y', '/api/users'],
    ['/players/CB-2025-00001', '/players/cb-2025-00001'],
    ['/%E0%A4%A', '/%e0%a4%a'],
  ])('%s → %s', (target, expected) => {
    expect(canonicalPath(target)).toBe(expected);
  });
});

describe('isApiPath', () => {
  it.each([
    ['/api', true],
    ['/api/users', true],
    ['/ws', true],
    ['/ws/x', true],
    ['/apis', false],
    ['/wsx', false],
    ['/players', false],
    ['/', false],
  ])('%s → %s', (path, expected) => {
    expect(isApiPath(path)).toBe(expected);
  });
});
