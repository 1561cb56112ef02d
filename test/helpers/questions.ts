/** Two questions of the kinds `ask_user` offers (a choice and free text), shared by its tests. */
export const QUESTIONS = [
  {
    question: 'Which database should the service use?',
    header: 'Database',
    type: 'choice',
    options: [
      { label: 'Postgres', description: 'relational' },
      { label: 'SQLite', description: 'one file' },
    ],
  },
  { question: 'Which port?', header: 'Port', type: 'text' },
];
