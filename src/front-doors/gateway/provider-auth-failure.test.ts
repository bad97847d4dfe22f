import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { startTestGateway } from "./gateway.test-support.js";
import { sdkError } from "./messages/anthropic-error.test-support.js";

// A provider that refuses the gateway's key (401/403) fails every run the same way: the official clients,
// with their default retries, must see it once and not send the run again (they retry 408/409/429/5xx).

const AUTH_FAILED = "fail:PROVIDER_AUTH_FAILED";

describe("a provider that refuses its key", () => {
  it("is one 424 provider_auth_failed for the openai client, never retried", async () => {
    const test = await startTestGateway();
    const client = new OpenAI({ baseURL: `${test.url}/v1`, apiKey: "unused" });
    const error = await client.chat.completions
      .create({ model: "toolsift", messages: [{ role: "user", content: AUTH_FAILED }] })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(424);
    expect(apiError.code).toBe("provider_auth_failed");
    expect(apiError.type).toBe("server_error");
    expect(apiError.headers?.get("x-should-retry")).toBe("false");
    expect(test.runner.requests).toHaveLength(1);
  });

  it("is one 424 on the Responses API too", async () => {
    const test = await startTestGateway();
    const client = new OpenAI({ baseURL: `${test.url}/v1`, apiKey: "unused" });
    const error = await client.responses.create({ model: "toolsift", input: AUTH_FAILED }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(424);
    expect((error as InstanceType<typeof OpenAI.APIError>).code).toBe("provider_auth_failed");
    expect(test.runner.requests).toHaveLength(1);
  });

  it("is one 424 api_error for the Anthropic client, never retried", async () => {
    const test = await startTestGateway();
    const client = new Anthropic({ baseURL: test.url, apiKey: "unused" });
    const error = await sdkError(
      client.messages.create({
        model: "toolsift",
        max_tokens: 64,
        messages: [{ role: "user", content: AUTH_FAILED }],
      }),
    );
    expect(error.status).toBe(424);
    expect(error.type).toBe("api_error");
    expect(test.runner.requests).toHaveLength(1);
  });

  it("leaves other provider failures at 502, which clients may retry", async () => {
    const test = await startTestGateway();
    const response = await test.post("/v1/chat/completions", {
      model: "toolsift",
      messages: [{ role: "user", content: "fail:PROVIDER_FAILED" }],
    });
    expect(response.status).toBe(502);
    expect(response.headers.get("x-should-retry")).toBeNull();
  });
});
