/** The fixed vocabulary the demo draws names, addresses and phone numbers from. */

export const FIRST_NAMES = [
  'Emma', 'Olivia', 'Ava', 'Sophia', 'Isabella', 'Mia', 'Charlotte', 'Amelia', 'Harper', 'Evelyn', 'Abigail',
  'Emily', 'Ella', 'Avery', 'Scarlett', 'Grace', 'Chloé', 'Zoë', 'Lucía', 'Sofía', 'Renée', 'Maya', 'Aaliyah',
  'Priya', 'Hana', 'Nora', 'Leah', 'Ruby', 'Ivy', 'Camila', 'Liam', 'Noah', 'Oliver', 'Elijah', 'James',
  'William', 'Benjamin', 'Lucas', 'Henry', 'Alexander', 'Mason', 'Ethan', 'Daniel', 'Jacob', 'Logan', 'Jackson',
  'Sebastián', 'José', 'Matías', 'André', 'Noé', 'Mateo', 'Diego', 'Kai', 'Arjun', 'Omar', 'Wei', 'Kofi',
  'Finn', 'Owen', 'Caleb', 'Jayden',
] as const;

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thomas',
  'Moore', 'Martin', 'Jackson', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young',
  'Allen', 'King', 'Wright', 'Scott', 'Hill', 'Green', 'Adams', 'Baker', 'Nguyen', 'Kim', 'Patel', 'Chen',
  'García', 'Martínez', 'Rodríguez', 'Hernández', 'López', 'Peña', 'Muñoz', 'Núñez', 'Côté', 'Lefèvre',
  'Müller', "O'Brien", 'García-López', 'Smith-Jones', 'Okafor', 'Kowalski', 'Rossi', 'Novak',
] as const;

export const GUARDIAN_FIRST_NAMES = [
  'Jennifer', 'Michael', 'Sarah', 'David', 'Jessica', 'Christopher', 'Ashley', 'Matthew', 'Amanda', 'Joshua',
  'Melissa', 'Andrew', 'Stephanie', 'Ryan', 'Nicole', 'Brian', 'Elizabeth', 'Kevin', 'Laura', 'Carlos', 'María',
  'Ana', 'Luis', 'Thi', 'Min-jun', 'Aisha', 'Rahul', 'Ngozi', 'Françoise', 'Björn',
] as const;

export const EMAIL_DOMAINS = ['example.org', 'example.com', 'example.net'] as const;
export const MAIL_HOSTS = ['mail.example.org', 'mx.example.com', 'smtp.example.net'] as const;
export const AREA_CODES = ['212', '312', '415', '503', '617', '720', '919', '206'] as const;
