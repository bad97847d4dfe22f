// An example toolsift plugin (see the README's gateway section): two tools with canned answers, so the
// recipe works offline. A real plugin would call a weather service inside `execute`.

/** Called once when the gateway loads the plugin; it may register only the tools its manifest declares. */
export function register(api) {
  api.registerTool({
    name: "get_forecast",
    label: "Forecast",
    description: "Weather forecast for a city, up to 14 days ahead: sky, high and low temperature.",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string", description: "City name, e.g. Berlin" },
        days: { type: "integer", minimum: 1, maximum: 14, description: "Days ahead (default 1)" },
      },
      required: ["city"],
      additionalProperties: false,
    },
    execute: async ({ city, days = 1 }) => ({
      content: [
        { type: "text", text: `Forecast for ${city}, ${days} day(s) ahead: sunny, high 21 °C, low 12 °C.` },
      ],
      details: { city, days, sky: "sunny", highC: 21, lowC: 12 },
    }),
  });

  api.registerTool({
    name: "get_current_conditions",
    label: "Current weather",
    description: "Current weather in a city: temperature, wind and humidity.",
    parameters: {
      type: "object",
      properties: { city: { type: "string", description: "City name, e.g. Berlin" } },
      required: ["city"],
      additionalProperties: false,
    },
    execute: async ({ city }) => ({
      content: [{ type: "text", text: `Now in ${city}: 17 °C, light wind from the west, humidity 60 %.` }],
      details: { city, temperatureC: 17, wind: "W 10 km/h", humidity: 0.6 },
    }),
  });
}
