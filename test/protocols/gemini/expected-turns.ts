// What the openai-kind upstream is sent when a Gemini client's function call over two turns is translated, for
// the tests of the JavaScript and the Python SDK, which ask the same question through different clients.

/** The messages of the second turn of a call for Paris's weather: the question, the call (`callId`), its result. */
export function parisWeatherTurns(callId: string, result: string) {
  return [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: callId, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: callId, content: result },
  ];
}
