/** The league's staff accounts: one per role, in different states. */
import type { NewUser } from '../users';
import { DAY_MS, MINUTE_MS, type Generation } from './generation-state';

/** An active administrator, an inactive moderator and a viewer still pending, who never logged in. */
export function generateUsers(generation: Generation): NewUser[] {
  const { random, nowMs } = generation;
  return [
    {
      id: random.nextUuid(),
      email: 'morgan.reyes@example.org',
      firstName: 'Morgan',
      lastName: 'Reyes',
      role: 'admin',
      status: 'active',
      lastLoginAt: new Date(nowMs - random.nextInt(20, 180) * MINUTE_MS),
      profileImageUrl: null,
      createdAt: new Date(nowMs - 980 * DAY_MS),
    },
    {
      id: random.nextUuid(),
      email: 'priya.natarajan@example.org',
      firstName: 'Priya',
      lastName: 'Natarajan',
      role: 'moderator',
      status: 'inactive',
      lastLoginAt: new Date(nowMs - random.nextInt(90, 150) * DAY_MS),
      profileImageUrl: null,
      createdAt: new Date(nowMs - 700 * DAY_MS),
    },
    {
      id: random.nextUuid(),
      email: 'sam.okafor@example.org',
      firstName: 'Sam',
      lastName: 'Okafor',
      role: 'viewer',
      status: 'pending',
      lastLoginAt: null,
      profileImageUrl: null,
      createdAt: new Date(nowMs - 3 * DAY_MS),
    },
  ];
}
