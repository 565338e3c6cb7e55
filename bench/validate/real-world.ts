/**
 * Real-world tool argument schemas, written for this benchmark after the published tool
 * definitions of popular MCP servers (filesystem, GitHub, Slack, Puppeteer) and the shape
 * OpenAI strict function calling requires (every property required, optional ones
 * nullable, `additionalProperties: false`, nested arrays of objects, enums, patterns).
 * Each case has arguments a model would send, a valid set and an invalid set.
 */
export interface RealWorldCase {
  name: string;
  schema: Record<string, unknown>;
  valid: unknown;
  invalid: unknown;
}

const str = (description: string) => ({ type: 'string', description });

export const REAL_WORLD: RealWorldCase[] = [
  {
    name: 'filesystem read_file',
    schema: {
      type: 'object',
      properties: {
        path: str('Path of the file to read'),
        head: { type: 'number', description: 'If set, return only the first N lines' },
        tail: { type: 'number', description: 'If set, return only the last N lines' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    valid: { path: '/home/user/project/src/index.ts', head: 40 },
    invalid: { path: 42, head: '40' },
  },
  {
    name: 'filesystem write_file',
    schema: {
      type: 'object',
      properties: { path: str('Path of the file'), content: str('Content to write') },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    valid: { path: '/tmp/notes.md', content: '# Notes\n\nRemember to water the plants.\n' },
    invalid: { path: '/tmp/notes.md', contents: 'typo in the key' },
  },
  {
    name: 'filesystem edit_file',
    schema: {
      type: 'object',
      properties: {
        path: str('Path of the file to edit'),
        edits: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              oldText: str('Text to search for - must match exactly'),
              newText: str('Text to replace with'),
            },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun: {
          type: 'boolean',
          default: false,
          description: 'Preview changes using git-style diff format',
        },
      },
      required: ['path', 'edits'],
      additionalProperties: false,
    },
    valid: {
      path: 'src/app.ts',
      edits: [
        { oldText: 'const port = 3000;', newText: 'const port = Number(process.env.PORT);' },
        { oldText: 'console.log("up")', newText: 'logger.info("up")' },
      ],
      dryRun: true,
    },
    invalid: {
      path: 'src/app.ts',
      edits: [{ oldText: 'a' }, { old: 'b', newText: 'c' }],
      dryRun: 'yes',
    },
  },
  {
    name: 'filesystem search_files',
    schema: {
      type: 'object',
      properties: {
        path: str('Directory to search from'),
        pattern: str('Glob pattern to match'),
        excludePatterns: { type: 'array', items: { type: 'string' }, default: [] },
      },
      required: ['path', 'pattern'],
      additionalProperties: false,
    },
    valid: { path: '/srv/app', pattern: '**/*.test.ts', excludePatterns: ['node_modules', 'dist'] },
    invalid: { path: '/srv/app', excludePatterns: 'node_modules' },
  },
  {
    name: 'github create_issue',
    schema: {
      type: 'object',
      properties: {
        owner: str('Repository owner'),
        repo: str('Repository name'),
        title: str('Issue title'),
        body: str('Issue body'),
        assignees: { type: 'array', items: { type: 'string' }, description: 'Usernames' },
        milestone: { type: 'number', description: 'Milestone number' },
        labels: { type: 'array', items: { type: 'string' }, description: 'Labels' },
      },
      required: ['owner', 'repo', 'title'],
      additionalProperties: false,
    },
    valid: {
      owner: 'octo-org',
      repo: 'hello-world',
      title: 'Crash when the config file is empty',
      body: 'Steps to reproduce:\n1. create an empty config\n2. run the CLI',
      labels: ['bug', 'good first issue'],
      assignees: ['octocat'],
    },
    invalid: { owner: 'octo-org', title: ['Crash'], labels: 'bug', milestone: 'v2' },
  },
  {
    name: 'github create_pull_request',
    schema: {
      type: 'object',
      properties: {
        owner: str('Repository owner'),
        repo: str('Repository name'),
        title: str('Pull request title'),
        body: str('Pull request body'),
        head: str('The branch where your changes are implemented'),
        base: str('The branch you want the changes pulled into'),
        draft: { type: 'boolean', description: 'Whether to create the pull request as a draft' },
        maintainer_can_modify: {
          type: 'boolean',
          description: 'Whether maintainers can modify the pull request',
        },
      },
      required: ['owner', 'repo', 'title', 'head', 'base'],
      additionalProperties: false,
    },
    valid: {
      owner: 'octo-org',
      repo: 'hello-world',
      title: 'Handle empty config files',
      body: 'Fixes #12',
      head: 'fix/empty-config',
      base: 'main',
      draft: false,
    },
    invalid: { owner: 'octo-org', repo: 'hello-world', title: 'Fix', head: 7, draft: 'no' },
  },
  {
    name: 'github search_repositories',
    schema: {
      type: 'object',
      properties: {
        query: str('Search query (see GitHub search syntax)'),
        page: { type: 'number', description: 'Page number for pagination (default: 1)' },
        perPage: {
          type: 'number',
          description: 'Number of results per page (default: 30, max: 100)',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    valid: { query: 'language:typescript stars:>1000 mcp', page: 2, perPage: 50 },
    invalid: { q: 'mcp', perPage: '50' },
  },
  {
    name: 'slack post_message',
    schema: {
      type: 'object',
      properties: {
        channel_id: str('The ID of the channel to post to'),
        text: str('The message text to post'),
      },
      required: ['channel_id', 'text'],
    },
    valid: { channel_id: 'C024BE91L', text: 'Deploy finished :rocket:' },
    invalid: { channel: 'C024BE91L', text: null },
  },
  {
    name: 'slack list_channels',
    schema: {
      type: 'object',
      properties: {
        limit: {
          type: 'number',
          default: 100,
          description: 'Maximum number of channels to return (default 100, max 200)',
        },
        cursor: str('Pagination cursor for the next page of results'),
      },
    },
    valid: { limit: 50, cursor: 'dXNlcjpVMDYxTkZUVDI=' },
    invalid: { limit: '50', cursor: 12 },
  },
  {
    name: 'puppeteer navigate',
    schema: {
      type: 'object',
      properties: {
        url: str('URL to navigate to'),
        launchOptions: {
          type: 'object',
          description: 'PuppeteerJS LaunchOptions; the browser restarts if they change',
        },
        allowDangerous: {
          type: 'boolean',
          description: 'Allow launch options that reduce security',
        },
      },
      required: ['url'],
    },
    valid: { url: 'https://example.com/pricing', launchOptions: { headless: true } },
    invalid: { url: ['https://example.com'], launchOptions: 'headless', allowDangerous: 1 },
  },
  {
    name: 'puppeteer screenshot',
    schema: {
      type: 'object',
      properties: {
        name: str('Name for the screenshot'),
        selector: str('CSS selector for the element to screenshot'),
        width: { type: 'number', description: 'Width in pixels (default: 800)' },
        height: { type: 'number', description: 'Height in pixels (default: 600)' },
        encoded: {
          type: 'boolean',
          description: 'Return a base64 data URI instead of binary image content',
        },
      },
      required: ['name'],
    },
    valid: { name: 'pricing-table', selector: '#pricing', width: 1280, height: 720 },
    invalid: { selector: '#pricing', width: '1280px', height: true },
  },
  {
    name: 'openai strict create_order',
    schema: {
      type: 'object',
      properties: {
        customer_id: { type: 'string', pattern: '^cus_[A-Za-z0-9]{8,}$' },
        currency: { type: 'string', enum: ['usd', 'eur', 'gbp'] },
        note: { type: ['string', 'null'], description: 'Free-text note, null for none' },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{3,6}$' },
              quantity: { type: 'integer' },
              gift_wrap: { type: ['boolean', 'null'] },
              options: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    name: { type: 'string', enum: ['size', 'color', 'engraving'] },
                    value: { type: 'string' },
                  },
                  required: ['name', 'value'],
                  additionalProperties: false,
                },
              },
            },
            required: ['sku', 'quantity', 'gift_wrap', 'options'],
            additionalProperties: false,
          },
        },
        shipping: {
          type: 'object',
          properties: {
            method: { type: 'string', enum: ['standard', 'express', 'pickup'] },
            address: {
              type: ['object', 'null'],
              properties: {
                line1: { type: 'string' },
                city: { type: 'string' },
                postal_code: { type: 'string' },
                country: { type: 'string', pattern: '^[A-Z]{2}$' },
              },
              required: ['line1', 'city', 'postal_code', 'country'],
              additionalProperties: false,
            },
          },
          required: ['method', 'address'],
          additionalProperties: false,
        },
      },
      required: ['customer_id', 'currency', 'note', 'items', 'shipping'],
      additionalProperties: false,
    },
    valid: {
      customer_id: 'cus_9s6XKzkNRiz8i3',
      currency: 'eur',
      note: null,
      items: [
        {
          sku: 'TEE-1042',
          quantity: 2,
          gift_wrap: null,
          options: [
            { name: 'size', value: 'M' },
            { name: 'color', value: 'navy' },
          ],
        },
        { sku: 'MUG-220', quantity: 1, gift_wrap: true, options: [] },
      ],
      shipping: {
        method: 'express',
        address: {
          line1: 'Rua Augusta 100',
          city: 'Lisboa',
          postal_code: '1100-053',
          country: 'PT',
        },
      },
    },
    invalid: {
      customer_id: 'cus_9s6',
      currency: 'EUR',
      items: [
        {
          sku: 'tee-1042',
          quantity: 2.5,
          options: [{ name: 'colour', value: 'navy' }],
        },
      ],
      shipping: { method: 'drone', address: { line1: 'Rua Augusta 100', country: 'Portugal' } },
    },
  },
  {
    name: 'openai strict search_flights',
    schema: {
      type: 'object',
      properties: {
        origin: { type: 'string', pattern: '^[A-Z]{3}$' },
        destination: { type: 'string', pattern: '^[A-Z]{3}$' },
        departure_date: { type: 'string', description: 'YYYY-MM-DD' },
        return_date: { type: ['string', 'null'] },
        cabin: { type: 'string', enum: ['economy', 'premium_economy', 'business', 'first'] },
        passengers: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              type: { type: 'string', enum: ['adult', 'child', 'infant'] },
              age: { type: ['integer', 'null'] },
            },
            required: ['type', 'age'],
            additionalProperties: false,
          },
        },
        max_stops: { type: ['integer', 'null'] },
      },
      required: [
        'origin',
        'destination',
        'departure_date',
        'return_date',
        'cabin',
        'passengers',
        'max_stops',
      ],
      additionalProperties: false,
    },
    valid: {
      origin: 'LIS',
      destination: 'JFK',
      departure_date: '2027-03-14',
      return_date: '2027-03-28',
      cabin: 'economy',
      passengers: [
        { type: 'adult', age: null },
        { type: 'child', age: 8 },
      ],
      max_stops: 1,
    },
    invalid: {
      origin: 'Lisbon',
      destination: 'JFK',
      departure_date: '2027-03-14',
      cabin: 'coach',
      passengers: [{ type: 'senior', age: '70' }],
      max_stops: 'one',
    },
  },
];
