/** The most times one request is sent while the server answers it busy (429) before that answer is the caller's. */
export const MAX_BUSY_ATTEMPTS = 30;
const DEFAULT_RETRY_AFTER_S = 1;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends a request again while the server answers 429 (too many large bodies or stores at once),
 * after the wait its Retry-After says (1 s when it says none), at most MAX_BUSY_ATTEMPTS times: an
 * import or upload waits for its turn instead of stopping. Any other answer is returned as it is.
 */
export async function untilNotBusy(send: () => Promise<Response>, wait = sleep): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (response.status !== 429 || attempt >= MAX_BUSY_ATTEMPTS) return response;
    await response.arrayBuffer();
    const seconds = Number(response.headers.get('retry-after') ?? DEFAULT_RETRY_AFTER_S);
    await wait(Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_RETRY_AFTER_S * 1000);
  }
}
