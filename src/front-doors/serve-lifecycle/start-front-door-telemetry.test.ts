import { afterEach, describe, expect, it } from "vitest";
import { activeTracer } from "../../runtime/telemetry/index.js";
import { type OtlpReceiver, startOtlpReceiver } from "../../runtime/telemetry/otlp-receiver.test-support.js";
import { startFrontDoorTelemetry } from "./start-front-door-telemetry.js";

let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("startFrontDoorTelemetry (a real OTLP/HTTP receiver on 127.0.0.1)", () => {
  it("is on from the start, exports the spans of the front door's last work, and stops only after its close", async () => {
    receiver = await startOtlpReceiver();
    const telemetry = await startFrontDoorTelemetry({
      config: { otlp: { endpoint: receiver.endpoint } },
      env: {},
    });
    expect(activeTracer()).toBeDefined();
    const order: string[] = [];
    await telemetry.stopAfter(async () => {
      // The last run flushing while the server closes: telemetry must still record it.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const tracer = activeTracer();
      order.push(tracer === undefined ? "close: telemetry already off" : "close: telemetry on");
      tracer?.startSpan("last run").end();
    });
    order.push(activeTracer() === undefined ? "after: telemetry off" : "after: telemetry on");
    expect(order).toEqual(["close: telemetry on", "after: telemetry off"]);
    // Exported by the shutdown's flush, without waiting for the batch delay.
    expect(receiver.spans().map((span) => span.name)).toContain("last run");
  });

  it("shuts telemetry down when the close fails, rethrowing its error, and stops once however often it is asked", async () => {
    receiver = await startOtlpReceiver();
    const telemetry = await startFrontDoorTelemetry({
      config: { otlp: { endpoint: receiver.endpoint } },
      env: {},
    });
    let closes = 0;
    const failing = async () => {
      closes += 1;
      throw new Error("drain failed");
    };
    await expect(telemetry.stopAfter(failing)).rejects.toThrow("drain failed");
    await expect(telemetry.stopAfter(failing)).rejects.toThrow("drain failed");
    expect(closes).toBe(1);
    expect(activeTracer()).toBeUndefined();
  });

  it("without an endpoint loads nothing and only runs the close", async () => {
    const telemetry = await startFrontDoorTelemetry({ env: {} });
    expect(activeTracer()).toBeUndefined();
    let closed = false;
    await telemetry.stopAfter(async () => {
      closed = true;
    });
    expect(closed).toBe(true);
  });
});
