using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>Hand-made runs: every figure a test checks follows from the values written here.</summary>
internal static class Runs
{
    public static readonly DateTimeOffset Start = new(2026, 11, 22, 1, 19, 0, TimeSpan.Zero);

    public static SeriesInfo Series(
        string stack, string operation, string mode, string model = "closed", double offset = 0,
        double? idealLatencyMs = null, double? idealThroughput = null, string? id = null) =>
        new(id ?? $"{stack}-{operation}-{mode}", stack, operation, mode, "http://127.0.0.1:5001", model,
            new Dictionary<string, string> { ["delayMs"] = "4000" }, offset, idealLatencyMs, idealThroughput);

    public static RunData Run(IEnumerable<(SeriesInfo Series, IReadOnlyList<SecondSample> Samples)> series, IReadOnlyList<RunEvent>? events = null, string runId = "20261122-011900")
    {
        var list = series.ToList();
        var modes = list.Select(s => s.Series.Mode).Distinct().ToList();
        var manifest = new RunManifest(
            RunManifest.CurrentFormatVersion, runId, Start, "ramp", """{"stages":[{"users":4,"seconds":45}]}""", 1.0, modes,
            [.. list.Select(s => s.Series)], new MachineInfo(2, "Linux 6.1 (Debian 12)", "10.0.0", "0.1.0-test"),
            "harness run --profile ramp --modes threadpool,iocp,custompool", ["agent-1"]);
        return new RunData(manifest, list.ToDictionary(s => s.Series.Id, s => s.Samples), events ?? []);
    }

    public static LatencyHistogram Histogram(params (long Microseconds, long Count)[] values)
    {
        var histogram = new LatencyHistogram();
        foreach (var (microseconds, count) in values)
        {
            histogram.RecordValues(microseconds, count);
        }

        return histogram;
    }

    /// <summary>
    /// One second as format 3 records it: <paramref name="latency"/> holds the successful requests, and the
    /// <paramref name="failures"/> come on top, each taking <paramref name="failureLatency"/> (5 ms apiece when not given).
    /// </summary>
    public static SecondSample Sample(
        int second, int users, LatencyHistogram latency, long failures = 0,
        IReadOnlyDictionary<string, double>? server = null, IReadOnlyDictionary<string, long>? statuses = null,
        LatencyHistogram? intended = null, LatencyHistogram? failureLatency = null,
        LatencyHistogram? serverTime = null, LatencyHistogram? queueTime = null) =>
        new(second, users, latency.TotalCount + failures, failures,
            statuses ?? (failures > 0 ? new Dictionary<string, long> { ["timeout"] = failures } : new Dictionary<string, long>()),
            latency, intended, server ?? new Dictionary<string, double>(),
            failureLatency ?? (failures > 0 ? Histogram((5_000, failures)) : null), serverTime, queueTime);

    /// <summary>/metrics of a target as the services publish it, with this second's counters.</summary>
    public static Dictionary<string, double> Server(
        string mode, double osThreads, double busy, double queue, double cpuSeconds, double voluntary, double involuntary, double workingSetMb = 80) => new()
        {
            [$"harness_info{{service=\"grpc\",mode=\"{mode}\",processors=\"2\",gc=\"workstation\"}}"] = 1,
            ["harness_threadpool_threads"] = Math.Max(2, osThreads - 12),
            ["harness_threadpool_pending_work_items"] = 0,
            [$"harness_scheduler_threads{{mode=\"{mode}\"}}"] = Math.Max(2, osThreads - 12),
            [$"harness_scheduler_busy_threads{{mode=\"{mode}\"}}"] = busy,
            [$"harness_scheduler_queue_length{{mode=\"{mode}\"}}"] = queue,
            ["process_cpu_seconds_total"] = cpuSeconds,
            ["process_working_set_bytes"] = workingSetMb * 1024 * 1024,
            ["process_threads"] = osThreads,
            ["process_voluntary_context_switches_total"] = voluntary,
            ["process_involuntary_context_switches_total"] = involuntary,
        };

    /// <summary>
    /// The thread-starvation experiment in miniature: a ramp of users calling a 4 s stub, in three modes run one after another.
    /// threadpool's latency climbs as its threads lag behind; iocp and custompool stay near 4 s. The custompool
    /// target dies at second 50 and comes back at 60 (a gap with events); a soap group's iocp target never answers
    /// /metrics (no server samples); an open-model group carries intended-start latency. The ramp's series have 4 s
    /// of warm-up, the soap group's threadpool 3 s and its iocp none.
    /// </summary>
    public static RunData ThreeModeRamp(int seconds = 120)
    {
        var random = new Random(2);
        var list = new List<(SeriesInfo, IReadOnlyList<SecondSample>)>();
        string[] modes = ["threadpool", "iocp", "custompool"];
        for (var m = 0; m < modes.Length; m++)
        {
            var mode = modes[m];
            var info = Series("grpc", "call-third-party", mode, offset: m * (seconds + 10), idealLatencyMs: 4000) with { WarmUpSeconds = 4 };
            var samples = new List<SecondSample>();
            double cpu = 1, voluntary = 5000, involuntary = 300;
            for (var s = 0; s < seconds; s++)
            {
                if (mode == "custompool" && s is >= 50 and < 60)
                {
                    continue;
                }

                var users = 4 + (4 * (s / 15));
                var slowdown = mode == "threadpool" ? 1 + (s / (double)seconds * 1.6) : 1.02;
                var mean = 4000 * slowdown;
                var requests = s < 4 ? 0 : Math.Max(1, (int)(users / (mean / 1000)));
                var latency = new LatencyHistogram();
                for (var r = 0; r < requests; r++)
                {
                    latency.Record((long)((mean + (random.NextDouble() * 0.25 * mean)) * 1000));
                }

                var failures = mode == "threadpool" && s > 90 ? 1 : 0;
                cpu += 0.05 + (requests * 0.002);
                voluntary += requests * (mode == "threadpool" ? 40 : 12);
                involuntary += requests * (mode == "threadpool" ? 9 : 2);
                var threads = mode switch
                {
                    "threadpool" => 14 + (s / 3),
                    "iocp" => 16,
                    _ => 14 + users,
                };
                var server = Server(mode, threads, mode == "iocp" ? 2 : Math.Min(users, threads - 12), mode == "threadpool" ? Math.Max(0, users - (s / 3)) : 0,
                    cpu, voluntary, involuntary, 70 + (s * 0.2));
                samples.Add(Sample(s, users, latency, failures, server,
                    failures > 0 ? new Dictionary<string, long> { ["DeadlineExceeded"] = failures } : null));
            }

            list.Add((info, samples));
        }

        // A group whose iocp target never answered /metrics.
        foreach (var mode in new[] { "threadpool", "iocp" })
        {
            var info = Series("soap", "compute", mode, idealLatencyMs: 250, idealThroughput: 8) with { WarmUpSeconds = mode == "threadpool" ? 3 : 0 };
            var samples = new List<SecondSample>();
            double cpu = 1, switches = 1000;
            for (var s = 0; s < 40; s++)
            {
                var users = 2 + (2 * (s / 10));
                var latency = Histogram(((long)((mode == "iocp" ? 260 : 250 + (s * 12)) * 1000), 6), (300_000 + (s * 1000), 2));
                cpu += 1.6;
                switches += 900;
                samples.Add(Sample(s, users, latency, server: mode == "iocp" ? null : Server(mode, 20 + s, 2, s / 4, cpu, switches, switches / 10)));
            }

            list.Add((info, samples));
        }

        // An open-model group: the arrival rate is the "users" column, with latency from the intended start.
        foreach (var mode in new[] { "threadpool", "iocp" })
        {
            var info = Series("grpc", "compute", mode, model: "open", idealLatencyMs: 120, idealThroughput: 16);
            var samples = new List<SecondSample>();
            double cpu = 1, switches = 1000;
            for (var s = 0; s < 30; s++)
            {
                var rate = 5 + (s / 5);
                var service = mode == "iocp" ? 130 : 130 + (s * 8);
                cpu += 1.5;
                switches += 400;
                samples.Add(Sample(s, rate, Histogram((service * 1000L, rate)), server: Server(mode, 18, 2, 0, cpu, switches, 50),
                    intended: Histogram(((service + (mode == "iocp" ? 5 : s * 20)) * 1000L, rate))));
            }

            list.Add((info, samples));
        }

        RunEvent[] events =
        [
            new(2 * (seconds + 10) + 50, "target-down", "grpc-call-third-party-custompool", "custompool target stopped (fault injection: kill)"),
            new(2 * (seconds + 10) + 60, "target-up", "grpc-call-third-party-custompool", "custompool target answered /healthz again"),
            new(30, "note", "grpc-call-third-party-threadpool", "ThreadPool injected threads: starvation"),
            new(5, "fault", null, "network delay 50 ms added"),
        ];
        return Run(list, events);
    }

    /// <summary>
    /// A run whose modes were repeated: threadpool and iocp, 3 repetitions each of 30 s (2 s of warm-up), run
    /// interleaved, each with its server counters and the server's execution time (95 ms); iocp #2's target is down
    /// from second 12 to 15.
    /// </summary>
    public static RunData Repeated()
    {
        var random = new Random(8);
        var list = new List<(SeriesInfo, IReadOnlyList<SecondSample>)>();
        var events = new List<RunEvent>();
        for (var n = 1; n <= 3; n++)
        {
            foreach (var mode in new[] { "threadpool", "iocp" })
            {
                var offset = list.Count * 35.0;
                var info = Series("grpc", "compute", mode, offset: offset, idealLatencyMs: 100, id: $"grpc-compute-{mode}-{n}")
                    with { Repetition = n, WarmUpSeconds = 2, IdealMethod = "one call alone before the series" };
                var samples = new List<SecondSample>();
                double cpu = 1, switches = 1000;
                for (var s = 0; s < 30; s++)
                {
                    if (mode == "iocp" && n == 2 && s is >= 12 and < 15)
                    {
                        continue;
                    }

                    var users = 4 + (s / 10 * 4);
                    var mean = (mode == "threadpool" ? 160 : 110) * (1 + (random.NextDouble() * 0.2));
                    var latency = Histogram(((long)(mean * 1000), users * 8), ((long)(mean * 1500), users));
                    cpu += 1.2;
                    switches += users * (mode == "threadpool" ? 90 : 30);
                    var execution = Histogram((95_000, users * 9));
                    var queue = Histogram(((long)((mean - 95) * 1000), users * 8), ((long)((mean * 1.5) - 95) * 1000, users));
                    samples.Add(Sample(s, users, latency, server: Server(mode, 20 + users, 2, mode == "threadpool" ? users / 2 : 0, cpu, switches, switches / 10),
                        serverTime: execution, queueTime: queue));
                }

                if (mode == "iocp" && n == 2)
                {
                    events.Add(new RunEvent(offset + 12, "target-down", info.Id, "iocp target stopped"));
                    events.Add(new RunEvent(offset + 15, "target-up", info.Id, "iocp target answers again"));
                }

                list.Add((info, samples));
            }
        }

        return Run(list, events, runId: "20261122-020000");
    }
}
