import { describe, expect, it } from 'vitest';
import { allThreadsCpuPerFrame, frameCost, mainFrameCpu } from './frame-trace';

const meta = [
  { ph: 'M', name: 'process_name', pid: 1, args: { name: 'Renderer' } },
  { ph: 'M', name: 'thread_name', pid: 1, tid: 10, args: { name: 'CrRendererMain' } },
  { ph: 'M', name: 'thread_name', pid: 1, tid: 11, args: { name: 'Compositor' } },
];

describe('frame cost from a Chromium trace', () => {
  it('reads thread CPU per main-thread frame and per thread, not wall time', () => {
    const events = [
      ...meta,
      { ph: 'X', name: 'ThreadControllerImpl::RunTask', pid: 1, tid: 10, dur: 30_000, tdur: 6_000 },
      { ph: 'X', name: 'ProxyMain::BeginMainFrame', pid: 1, tid: 10, dur: 25_000, tdur: 5_000 },
      { ph: 'X', name: 'ThreadControllerImpl::RunTask', pid: 1, tid: 10, dur: 9_000, tdur: 8_000 },
      { ph: 'X', name: 'ProxyMain::BeginMainFrame', pid: 1, tid: 10, dur: 9_000, tdur: 7_000 },
      { ph: 'X', name: 'ThreadControllerImpl::RunTask', pid: 1, tid: 11, dur: 3_000, tdur: 2_000 },
    ];
    const cost = frameCost(JSON.stringify({ traceEvents: events }));
    expect(cost.frames).toBe(2);
    expect(mainFrameCpu(cost, 50)).toBe(5);
    expect(mainFrameCpu(cost, 100)).toBe(7);
    expect(cost.perThread).toEqual({ 'Renderer CrRendererMain': 7, 'Renderer Compositor': 1 });
    expect(allThreadsCpuPerFrame(cost)).toBe(8);
  });

  it('splits the main thread by lifecycle phase, counting nested events of a phase once', () => {
    const events = [
      ...meta,
      { ph: 'X', name: 'ProxyMain::BeginMainFrame', pid: 1, tid: 10, ts: 0, dur: 10_000, tdur: 9_000 },
      { ph: 'X', name: 'Paint', pid: 1, tid: 10, ts: 1_000, dur: 4_000, tdur: 4_000 },
      { ph: 'X', name: 'Paint', pid: 1, tid: 10, ts: 2_000, dur: 1_000, tdur: 1_000 },
      { ph: 'X', name: 'Layerize', pid: 1, tid: 10, ts: 6_000, dur: 2_000, tdur: 2_000 },
      { ph: 'X', name: 'Layerize', pid: 1, tid: 11, ts: 6_000, dur: 2_000, tdur: 2_000 },
    ];
    expect(frameCost(JSON.stringify({ traceEvents: events })).perPhase).toEqual({ paint: 4, layerize: 2 });
  });

  it('accepts the bare array form', () => {
    expect(frameCost(JSON.stringify([...meta, { ph: 'X', name: 'ProxyMain::BeginMainFrame', pid: 1, tid: 10, tdur: 4_000 }])).frames).toBe(1);
  });
});
