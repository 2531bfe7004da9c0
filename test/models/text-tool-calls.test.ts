import { describe, expect, it } from 'vitest';
import { parseTextToolCalls } from '../../src/models/text-tool-calls.js';

const read = (path: string) => ({
  name: 'read_file',
  rawArguments: JSON.stringify({ path }),
  arguments: { path },
});

describe('Hermes / Qwen <tool_call>', () => {
  it('reads one call and removes it from the text', () => {
    const out = parseTextToolCalls(
      'Let me look.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>',
    );
    expect(out).toEqual({ calls: [read('a.txt')], remainingText: 'Let me look.', errors: [] });
  });

  it('reads several calls in order', () => {
    const text =
      '<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>\n' +
      '<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>';
    expect(parseTextToolCalls(text).calls).toEqual([read('a'), read('b')]);
  });

  it('keeps braces and closing tags inside string arguments', () => {
    const content = 'function f() { return "}</tool_call>"; }\n';
    const text = `<tool_call>{"name": "write_file", "arguments": ${JSON.stringify({ path: 'f.js', content })}}</tool_call>`;
    const out = parseTextToolCalls(text);
    expect(out.calls[0]?.arguments).toEqual({ path: 'f.js', content });
    expect(out.remainingText).toBe('');
  });

  it('decodes arguments given as a JSON string', () => {
    const out = parseTextToolCalls(
      '<tool_call>{"name": "read_file", "arguments": "{\\"path\\": \\"x\\"}"}</tool_call>',
    );
    expect(out.calls[0]).toEqual({
      name: 'read_file',
      rawArguments: '{"path": "x"}',
      arguments: { path: 'x' },
    });
  });

  it('accepts raw newlines inside strings (unescaped file content)', () => {
    const out = parseTextToolCalls(
      '<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "l1\nl2"}}</tool_call>',
    );
    expect(out.calls[0]?.arguments).toEqual({ path: 'a', content: 'l1\nl2' });
  });

  it('accepts a missing closing tag (cut by a stop token)', () => {
    const out = parseTextToolCalls('<tool_call>\n{"name": "read_file", "arguments": {"path": "a"}}');
    expect(out.calls).toEqual([read('a')]);
    expect(out.errors).toEqual([]);
  });

  it('reports broken JSON as an error, keeps the text, and still reads the next call', () => {
    const text =
      '<tool_call>{"name": "read_file", "arguments": {"path": "a"}</tool_call>\n' +
      '<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>';
    const out = parseTextToolCalls(text);
    expect(out.calls).toEqual([read('b')]);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toMatch(/^<tool_call>: unterminated JSON/);
    expect(out.remainingText).toContain('"path": "a"');
  });

  it('reports invalid JSON with the parser reason', () => {
    const out = parseTextToolCalls('<tool_call>{"name": "read_file", "arguments": {path: a}}</tool_call>');
    expect(out.calls).toEqual([]);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toMatch(/^<tool_call>: invalid JSON \(.+\)$/);
  });

  it('reports a wrapper without a call', () => {
    expect(parseTextToolCalls('<tool_call>read_file(path="a")</tool_call>').errors).toEqual([
      '<tool_call> is not followed by a JSON tool call',
    ]);
  });

  it('reads OpenAI-shaped objects printed as text', () => {
    const text =
      '<tool_call>{"type": "function", "function": {"name": "read_file", "arguments": {"path": "a"}}}</tool_call>';
    expect(parseTextToolCalls(text).calls).toEqual([read('a')]);
  });
});

describe('Qwen3-coder XML', () => {
  it('reads <function=...><parameter=...> inside <tool_call>', () => {
    const text =
      'Writing it.\n<tool_call>\n<function=write_file>\n<parameter=path>\nmain.py\n</parameter>\n' +
      '<parameter=content>\nprint("{hi}")\n\n</parameter>\n</function>\n</tool_call>';
    const out = parseTextToolCalls(text);
    expect(out.calls).toEqual([
      {
        name: 'write_file',
        rawArguments: JSON.stringify({ path: 'main.py', content: 'print("{hi}")\n' }),
        arguments: { path: 'main.py', content: 'print("{hi}")\n' },
      },
    ]);
    expect(out.remainingText).toBe('Writing it.');
  });

  it('tolerates a missing </parameter> and a bare <function=> block', () => {
    const out = parseTextToolCalls('<function=execute_command>\n<parameter=command>\nls -la\n</function>');
    expect(out.calls[0]?.arguments).toEqual({ command: 'ls -la' });
  });

  it('ends each call at its </tool_call> even when </function> is missing', () => {
    const text =
      '<tool_call><function=read_file><parameter=path>a</parameter></tool_call>\n' +
      '<tool_call><function=read_file><parameter=path>b</parameter></function></tool_call>';
    expect(parseTextToolCalls(text).calls.map((c) => c.arguments)).toEqual([{ path: 'a' }, { path: 'b' }]);
  });

  it('reports an unterminated block inside <tool_call>', () => {
    expect(parseTextToolCalls('<tool_call><function=read_file><parameter=path>a').errors[0]).toMatch(
      /unterminated/,
    );
  });
});

describe('Llama 3.x bare JSON', () => {
  it('reads a bare call with "parameters"', () => {
    const out = parseTextToolCalls('{"name": "read_file", "parameters": {"path": "a"}}');
    expect(out).toEqual({ calls: [read('a')], remainingText: '', errors: [] });
  });

  it('reads <|python_tag|> calls separated by ;', () => {
    const text =
      '<|python_tag|>{"name": "read_file", "parameters": {"path": "a"}}; {"name": "read_file", "parameters": {"path": "b"}}';
    expect(parseTextToolCalls(text)).toEqual({
      calls: [read('a'), read('b')],
      remainingText: '',
      errors: [],
    });
  });

  it('reads several bare calls on separate lines', () => {
    const text =
      'I will read both.\n{"name": "read_file", "arguments": {"path": "a"}}\n{"name": "read_file", "arguments": {"path": "b"}}';
    const out = parseTextToolCalls(text);
    expect(out.calls).toEqual([read('a'), read('b')]);
    expect(out.remainingText).toBe('I will read both.');
  });

  it('reports broken JSON after <|python_tag|>', () => {
    expect(
      parseTextToolCalls('<|python_tag|>{"name": "read_file", "parameters": {"path": }}').errors[0],
    ).toMatch(/^<\|python_tag\|>: invalid JSON/);
  });
});

describe('Mistral [TOOL_CALLS]', () => {
  it('reads the JSON array form', () => {
    const text =
      '[TOOL_CALLS][{"name": "read_file", "arguments": {"path": "a"}}, {"name": "read_file", "arguments": {"path": "b"}}]';
    expect(parseTextToolCalls(text)).toEqual({
      calls: [read('a'), read('b')],
      remainingText: '',
      errors: [],
    });
  });

  it('reads the name[ARGS] form, repeated', () => {
    const text =
      '[TOOL_CALLS]read_file[ARGS]{"path": "a"}[TOOL_CALLS]read_file[CALL_ID]abc123[ARGS]{"path": "b"}';
    expect(parseTextToolCalls(text).calls).toEqual([read('a'), read('b')]);
  });

  it('reports broken arguments', () => {
    expect(parseTextToolCalls('[TOOL_CALLS]read_file[ARGS]{"path": a}').errors[0]).toMatch(/invalid JSON/);
  });
});

describe('Granite <|tool_call|>', () => {
  it('reads the array after the marker', () => {
    const out = parseTextToolCalls('<|tool_call|>[{"name": "read_file", "arguments": {"path": "a"}}]');
    expect(out).toEqual({ calls: [read('a')], remainingText: '', errors: [] });
  });
});

describe('fenced blocks', () => {
  it('reads ```json holding only a call', () => {
    const out = parseTextToolCalls(
      'Reading:\n```json\n{"name": "read_file", "arguments": {"path": "a"}}\n```\nthen more.',
    );
    expect(out.calls).toEqual([read('a')]);
    expect(out.remainingText).toBe('Reading:\n\nthen more.');
  });

  it('reads ```tool_call and ```tool_code blocks', () => {
    const text =
      '```tool_call\n{"name": "read_file", "arguments": {"path": "a"}}\n```\n' +
      '```tool_code\n[{"name": "read_file", "arguments": {"path": "b"}}]\n```';
    expect(parseTextToolCalls(text).calls).toEqual([read('a'), read('b')]);
  });

  it('reports a ```tool_code block that holds no JSON call', () => {
    const out = parseTextToolCalls('```tool_code\nprint(default_api.read_file(path="a"))\n```');
    expect(out.calls).toEqual([]);
    expect(out.errors).toEqual(['```tool_code block: does not hold a JSON tool call']);
  });
});

describe('text that is not a call', () => {
  it.each([
    ['config JSON in an answer', 'The config is {"name": "app", "version": 2}.'],
    ['name with non-object arguments', '{"name": "read_file", "arguments": 42}'],
    ['name that is not a string', '{"name": 7, "arguments": {}}'],
    ['a ```json example that is not a call', '```json\n{"name": "x", "port": 8080}\n```'],
    ['code with braces', 'function f(a) { if (a) { return {"k": [1, 2]}; } }'],
    ['prose with a lone brace', 'Use {"name" as the key} in the template.'],
  ])('%s', (_label, text) => {
    expect(parseTextToolCalls(text)).toEqual({ calls: [], remainingText: text.trim(), errors: [] });
  });

  it('leaves a call nested inside other JSON alone', () => {
    const text = '{"example": {"name": "read_file", "arguments": {"path": "a"}}}';
    expect(parseTextToolCalls(text).calls).toEqual([]);
  });
});
