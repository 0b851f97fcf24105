import { Plant, plantNameKey, PlantNameSearch } from '@plantstore/domain';

function plantNamed(name: string): Plant {
  const parsed = Plant.parse({ id: '1', name });
  if (!parsed.ok) throw new Error('test plant is invalid');
  return parsed.plant;
}

function search(text: string): PlantNameSearch {
  const found = PlantNameSearch.create(text);
  if (!(found instanceof PlantNameSearch)) throw new Error(`expected ${JSON.stringify(text)} to be a search`);
  return found;
}

describe('plantNameKey: a name as a person means it, case and accents set aside', () => {
  it.each([
    ['Fougère', 'fougere'],
    ['MONSTERA Deliciosa', 'monstera deliciosa'],
    ['Straße', 'strasse'],
    ['STRAẞE', 'strasse'],
    ['ΣΊΣΥΦΟΣ', 'σισυφοσ'],
    ['Σίσυφος', 'σισυφοσ'],
    ['Ａｌｏｅ', 'aloe'],
    ['ﬁcus', 'ficus'],
    ['Ærø Łódź', 'ærø łodz'],
    ['İstanbul', 'istanbul'],
    ['Ёлка', 'елка'],
    ['한국 난초', '한국 난초'],
    ['100% cotton_grass', '100% cotton_grass'],
    ['  two  spaces ', '  two  spaces '],
  ])('keys %j as %j', (name, key) => {
    expect(plantNameKey(name)).toBe(key);
  });

  it('gives a composed and a decomposed spelling of one name the same key', () => {
    expect(plantNameKey('Fouge\u0300re')).toBe(plantNameKey('Foug\u00e8re'));
  });

  it.each(['Straße', 'ΣΊΣΥΦΟΣ', 'İstanbul', 'ǅemal', 'ﬃ', 'ŉ', 'Ａｌｏｅ ＶＥＲＡ', '한국 난초', 'Ꭰꭰ', '㈱ ①'])(
    'keys %j once for good: the key of its key is itself, so every name finds itself',
    (name) => {
      const key = plantNameKey(name);
      expect(plantNameKey(key)).toBe(key);
      expect(search(name).matches(plantNamed(name).name)).toBe(true);
    },
  );

  it('is what PlantName.key answers, so stores and searches share it', () => {
    expect(plantNamed('Fougère mâle').name.key).toBe('fougere male');
  });
});

describe('PlantNameSearch: a text to find in plant names', () => {
  it.each([
    ['fougere', 'Fougère aigle'],
    ['MONSTERA', 'Monstera deliciosa'],
    ['ß', 'SS'],
    ['SS', 'Straße'],
    ['e A', 'Fougère aigle'],
    ['%', '100% cotton'],
  ])('%j finds %j', (text, name) => {
    expect(search(text).matches(plantNamed(name).name)).toBe(true);
  });

  it.each([
    ['fougère', 'Fouger'],
    ['s s', 'Straße'],
    ['%', 'cotton'],
    ['a_b', 'aXb'],
  ])('%j does not find %j', (text, name) => {
    expect(search(text).matches(plantNamed(name).name)).toBe(false);
  });

  it('keeps the text as sent and its key apart', () => {
    const found = search('Fougère');
    expect([found.value, found.key, JSON.stringify(found)]).toEqual(['Fougère', 'fougere', '"Fougère"']);
  });

  it.each([
    ['', 'name must be 1 to 200 characters long (got 0)'],
    ['x'.repeat(201), 'name must be 1 to 200 characters long (got 201)'],
    ['   ', 'name must not be only white space'],
    ['a\u0000b', 'name must not contain control characters (U+0000-U+001F, U+007F-U+009F)'],
    ['a\nb', 'name must not contain control characters (U+0000-U+001F, U+007F-U+009F)'],
    ['\u0301\u0300', 'name must hold more than accents and other combining marks'],
  ])('refuses %j, naming the name parameter', (text, message) => {
    expect(PlantNameSearch.create(text)).toEqual([{ field: 'name', message }]);
  });

  it('takes 200 code points, astral ones counted once', () => {
    expect(search('🌵'.repeat(200)).value).toHaveLength(400);
  });
});
