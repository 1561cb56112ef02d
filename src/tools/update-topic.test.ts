import { MAX_TOPICS, updateTopics, type Topic } from './update-topic';

describe('updateTopics', () => {
  it('opens a chapter on a new title and tells the model its title, summary and intent', () => {
    const first = updateTopics([], { title: 'Research', summary: 'Start.', strategic_intent: 'Read.' }, 1);
    expect(first.opened).toBe(true);
    expect(first.topics).toEqual([{ title: 'Research', summary: 'Start.', intent: 'Read.', turn: 1 }]);
    expect(first.text).toBe('Current topic: "Research"\nTopic summary: Start.\n\nStrategic intent: Read.');
  });

  it('keeps the chapter when only the intent changes, or the title is the same', () => {
    const topics: Topic[] = [{ title: 'Research', intent: 'Read.', turn: 1 }];
    const next = updateTopics(topics, { strategic_intent: 'Reproduce.' }, 2);
    expect(next).toEqual({
      topics: [{ title: 'Research', intent: 'Reproduce.', turn: 1 }],
      opened: false,
      text: 'Strategic intent: Reproduce.',
    });
    expect(updateTopics(topics, { title: 'Research', strategic_intent: 'x' }, 3).opened).toBe(false);
  });

  it(`keeps the last ${MAX_TOPICS} chapters`, () => {
    let topics: Topic[] = [];
    for (let i = 0; i < MAX_TOPICS + 5; i += 1)
      topics = updateTopics(topics, { title: `T${i}`, strategic_intent: 'go' }, i).topics;
    expect(topics).toHaveLength(MAX_TOPICS);
    expect(topics[0].title).toBe('T5');
  });
});
