// A stand-in inspector thread for inspector.test.ts that cannot start, as when a decoder library is missing.
throw new Error('Cannot find package sharp');
