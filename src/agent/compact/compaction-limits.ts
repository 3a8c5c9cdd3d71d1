/** Compact once the estimated prompt passes this share of the window: the rest is room for the answer and the estimate's error. */
export const COMPACT_AT_FRACTION = 0.8;

/** Exchanges (a user message or model call with its tool results) kept verbatim: enough for the model to see what it just did. */
export const RECENT_EXCHANGES_KEPT = 4;

/** The verbatim tail gives up its oldest exchanges past this share of the window, so a summary can still make room. */
export const RECENT_MAX_FRACTION = 0.4;

/** An old tool output keeps this many leading characters: the start says what the output was. */
export const SHORTENED_HEAD_CHARS = 1_200;

/** ...and this many trailing ones: errors and exit summaries come last. */
export const SHORTENED_TAIL_CHARS = 600;

/** Only outputs at least this long are shortened, so a shortened output is never shortened again. */
export const SHORTEN_ABOVE_CHARS = 3_000;

/** Seven short sections fit in about 1,500 tokens; the rest is headroom for models that count reasoning against it. */
export const SUMMARY_MAX_TOKENS = 4_096;

/** The summary request itself must fit the window: its input is cut to this share of it. */
export const SUMMARY_INPUT_FRACTION = 0.5;

/** Each tool output in the summary input is cut to this many characters: the gist, not the bulk. */
export const SUMMARY_INPUT_RESULT_CHARS = 2_000;

/** The deterministic summary lists at most this many tool calls (the most recent), so it stays small. */
export const DETERMINISTIC_MAX_TOOL_CALLS = 60;

/** User prompts and the last answer in the deterministic summary are cut to this many characters. */
export const DETERMINISTIC_TEXT_CHARS = 600;

/** An earlier summary carried into a deterministic one is cut to this, so repeated fallbacks cannot grow without bound. */
export const DETERMINISTIC_EARLIER_SUMMARY_CHARS = 4_000;
