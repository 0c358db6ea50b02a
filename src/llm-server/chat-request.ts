import { z } from 'zod';

/** A JSON Schema object, as found in `response_format` and tool definitions. */
export type JsonSchemaObject = Record<string, unknown>;

const textPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

const messageSchema = z.looseObject({
  role: z.string().min(1),
  content: z.union([z.string(), z.array(textPartSchema), z.null()]).optional(),
  name: z.string().optional(),
});

const responseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().min(1),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

const toolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string().min(1) }) }),
]);

/**
 * The part of an OpenAI Chat Completions request body the local server understands. Unknown
 * fields (`top_p`, `user`, penalties...) are accepted and ignored, as a real endpoint would.
 */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  seed: z.number().int().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  n: z.literal(1, { error: 'n > 1 is not supported by the local server' }).nullish(),
  stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
  response_format: responseFormatSchema.nullish(),
  tools: z.array(toolSchema).nullish(),
  tool_choice: toolChoiceSchema.nullish(),
});

/** A validated chat completion request body. */
export type ChatRequest = z.output<typeof chatRequestSchema>;

/** One message of a {@link ChatRequest}. */
export type ChatRequestMessage = ChatRequest['messages'][number];

/** The text of a message: its string content, or its text parts joined by newlines. */
export function messageText(message: ChatRequestMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}
