import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `ms` (compared as JSON, so a fresh but equal object does not restart it). */
export function useSettledValue<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return JSON.parse(settled) as T;
}
