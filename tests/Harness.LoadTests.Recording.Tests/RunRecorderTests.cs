namespace Harness.LoadTests.Recording.Tests;

public sealed class RunRecorderTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Requests_recorded_from_many_threads_while_seconds_are_flushed_are_all_written_exactly()
    {
        const int Workers = 4;
        const int RequestsPerWorker = 15_000;
        const int Seconds = 10;
        string[] ids = ["grpc-compute-iocp", "soap-compute-iocp"];
        var runDirectory = _directory.Sub("run");
        using var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series(ids[0]), TestRuns.Series(ids[1])), runDirectory);

        // Each worker's requests complete in increasing time; the flusher writes only seconds every worker has left,
        // so no request is late and each written second must hold exactly the values recorded for it.
        var progress = new int[Workers];
        var expected = new LatencyHistogram[Workers, Seconds];
        var expectedFailed = new LatencyHistogram[Workers, Seconds];
        var flushes = 0;
        var workers = Enumerable.Range(0, Workers).Select(worker => Task.Run(() =>
        {
            var random = new Random(worker);
            var id = ids[worker % 2];
            for (var i = 0; i < RequestsPerWorker; i++)
            {
                var completedAt = TimeSpan.FromSeconds((double)i * Seconds / RequestsPerWorker);
                var latency = TimeSpan.FromMicroseconds(random.Next(1, 5_000_000));
                var second = (int)completedAt.TotalSeconds;
                recorder.RecordRequest(id, completedAt, latency, null, isSuccess: i % 10 != 0, i % 20 == 0 ? "Unavailable" : "DeadlineExceeded");
                ((i % 10 != 0 ? expected : expectedFailed)[worker, second] ??= new LatencyHistogram()).Record(latency);
                Volatile.Write(ref progress[worker], second);
            }

            Volatile.Write(ref progress[worker], Seconds);
        })).ToArray();
        var flusher = Task.Run(() =>
        {
            for (var round = 0; round < 1_000_000 && !workers.All(worker => worker.IsCompleted); round++)
            {
                recorder.Flush(Enumerable.Range(0, Workers).Min(worker => Volatile.Read(ref progress[worker])));
                flushes++;
            }
        });
        await Task.WhenAll([.. workers, flusher]).WaitAsync(TimeSpan.FromSeconds(20));
        recorder.Complete();

        var run = RawRunReader.Read(runDirectory, out var warnings);
        Assert.Empty(warnings);
        Assert.True(flushes > 1);
        Assert.Equal(0, recorder.LateRequests);
        Assert.DoesNotContain(run.Events, e => e.Kind == "note");
        for (var s = 0; s < ids.Length; s++)
        {
            var timeline = run.Timelines[ids[s]];
            Assert.Equal(Enumerable.Range(0, Seconds), timeline.Select(sample => sample.Second));
            foreach (var sample in timeline)
            {
                var succeeded = LatencyHistogram.Merge(Enumerable.Range(0, Workers).Where(w => w % 2 == s).Select(w => expected[w, sample.Second]));
                var failed = LatencyHistogram.Merge(Enumerable.Range(0, Workers).Where(w => w % 2 == s).Select(w => expectedFailed[w, sample.Second]));
                Assert.Equal(succeeded.Encode(), sample.Latency.Encode());
                Assert.Equal(failed.Encode(), sample.FailureLatency!.Encode());
                Assert.Equal(succeeded.TotalCount + failed.TotalCount, sample.Requests);
                Assert.Equal(sample.Requests / 10, sample.Failures);
                Assert.Equal(sample.Failures / 2, sample.StatusCounts["Unavailable"]);
                Assert.Equal(sample.Failures, sample.StatusCounts.Values.Sum());
                Assert.Equal(new Dictionary<string, long> { ["DeadlineExceeded"] = sample.Requests - sample.Failures }, sample.SuccessCounts);
                Assert.Null(sample.IntendedLatency);
            }

            Assert.Equal(2 * RequestsPerWorker, timeline.Sum(sample => sample.Requests));
        }
    }

    [Fact]
    public void Tick_writes_the_seconds_that_ended_a_late_window_ago_and_releases_them()
    {
        var runDirectory = _directory.Sub("run");
        using var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);
        Assert.Equal(RunRecorder.DefaultLateWindowSeconds, recorder.LateWindowSeconds);
        for (var second = 0; second < 5; second++)
        {
            recorder.RecordUsers("a", second, 10 + second);
            recorder.RecordRequest("a", TimeSpan.FromSeconds(second + 0.5), TimeSpan.FromMilliseconds(3), null, true, null);
        }

        recorder.Tick(TimeSpan.FromSeconds(4.9));
        Assert.Equal([0, 1], RawRunReader.Read(runDirectory).Timelines["a"].Select(sample => sample.Second));
        recorder.Tick(TimeSpan.FromSeconds(5.2));
        Assert.Equal(2, recorder.OpenSecondCount);

        // What a crash leaves: the files as they were after the last tick.
        recorder.Dispose();
        var run = RawRunReader.Read(runDirectory, out var warnings);
        Assert.Empty(warnings);
        Assert.Equal([0, 1, 2], run.Timelines["a"].Select(sample => sample.Second));
        Assert.Equal([10, 11, 12], run.Timelines["a"].Select(sample => sample.Users));
        Assert.All(run.Timelines["a"], sample => Assert.Equal(1, sample.Requests));
    }

    [Fact]
    public void Seconds_of_a_series_that_started_later_end_at_its_offset_plus_one()
    {
        var runDirectory = _directory.Sub("run");
        using var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("late", offsetSeconds: 3.5)), runDirectory, lateWindowSeconds: 0);
        recorder.RecordRequest("late", TimeSpan.FromSeconds(0.2), TimeSpan.FromMilliseconds(1), null, true, null);

        recorder.Flush(4);
        Assert.Empty(RawRunReader.Read(runDirectory).Timelines["late"]);
        recorder.Tick(TimeSpan.FromSeconds(5));
        Assert.Single(RawRunReader.Read(runDirectory).Timelines["late"]);
        Assert.Equal(0, recorder.OpenSecondCount);
    }

    [Fact]
    public void A_late_request_counts_in_the_oldest_open_second_and_late_gauges_are_dropped()
    {
        var runDirectory = _directory.Sub("run");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory, lateWindowSeconds: 0);
        recorder.RecordRequest("a", TimeSpan.FromSeconds(0.5), TimeSpan.FromMilliseconds(7), null, true, null);
        recorder.Flush(2);
        recorder.RecordRequest("a", TimeSpan.FromSeconds(0.9), TimeSpan.FromMilliseconds(9), null, false, null);
        recorder.RecordUsers("a", 1, 4);
        recorder.RecordServer("a", 0, new Dictionary<string, double> { ["x"] = 1 });
        recorder.Complete();

        Assert.Equal(1, recorder.LateRequests);
        Assert.Equal(2, recorder.DroppedLateSamples);
        var run = RawRunReader.Read(runDirectory);
        var timeline = run.Timelines["a"];
        Assert.Equal([0, 2], timeline.Select(sample => sample.Second));
        Assert.Equal(7_000, timeline[0].Latency.MaxMicroseconds);
        Assert.Equal(9_000, timeline[1].FailureLatency!.MaxMicroseconds);
        Assert.Equal(1, timeline[1].StatusCounts["unknown"]);
        Assert.Equal(0, timeline[1].Users);
        var note = Assert.Single(run.Events);
        Assert.Equal("note", note.Kind);
        Assert.Equal(3, note.AtSeconds);
        Assert.Contains("1 requests", note.Message);
    }

    [Fact]
    public void Two_sources_of_one_second_merge_and_a_filled_value_never_replaces_the_targets_own_whichever_comes_first()
    {
        var runDirectory = _directory.Sub("run");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);

        // Second 0: the target's /metrics first, then the runtime session's values; second 1 the other way round.
        recorder.RecordServer("a", 0, new Dictionary<string, double> { ["process_cpu_seconds_total"] = 1, ["harness_threadpool_threads"] = 4 });
        recorder.FillServer("a", 0, new Dictionary<string, double> { ["process_cpu_seconds_total"] = 9, ["dotnet_thread_pool_thread_count"] = 5 });
        recorder.FillServer("a", 1, new Dictionary<string, double> { ["process_cpu_seconds_total"] = 9, ["dotnet_thread_pool_thread_count"] = 6 });
        recorder.RecordServer("a", 1, new Dictionary<string, double> { ["process_cpu_seconds_total"] = 2, ["harness_threadpool_threads"] = 7 });
        recorder.Complete();

        var timeline = RawRunReader.Read(runDirectory).Timelines["a"];
        Assert.Equal(
            [("dotnet_thread_pool_thread_count", 5.0), ("harness_threadpool_threads", 4.0), ("process_cpu_seconds_total", 1.0)],
            timeline[0].Server.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => (p.Key, p.Value)));
        Assert.Equal(
            [("dotnet_thread_pool_thread_count", 6.0), ("harness_threadpool_threads", 7.0), ("process_cpu_seconds_total", 2.0)],
            timeline[1].Server.OrderBy(p => p.Key, StringComparer.Ordinal).Select(p => (p.Key, p.Value)));
    }

    [Fact]
    public void Every_field_round_trips_through_the_files()
    {
        var runDirectory = _directory.Sub("run");
        var manifest = TestRuns.Manifest("agent-1", TestRuns.Series("closed"));
        var recorder = new RunRecorder(manifest, runDirectory);
        recorder.AddSeries(TestRuns.Series("open", offsetSeconds: 1, model: "open"));
        Assert.Equal(["closed", "open"], RawRunReader.ReadManifest(RawRunFiles.ManifestPath(runDirectory)).Series.Select(s => s.Id));

        recorder.RecordUsers("open", 0, 50);
        recorder.RecordRequest("open", TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(2), TimeSpan.FromMilliseconds(30), true, "OK");
        recorder.RecordRequest("open", TimeSpan.FromMilliseconds(900), TimeSpan.FromMilliseconds(4), TimeSpan.FromMilliseconds(40), false, "http-413");
        var metrics = PrometheusTextParser.Parse("""
            harness_info{service="grpc",mode="iocp"} 1
            up NaN
            high +Inf
            low -Inf
            """);
        recorder.RecordServer("open", 0, metrics);
        recorder.RecordRequest("closed", TimeSpan.FromSeconds(2.5), TimeSpan.FromMilliseconds(5), null, true, null);
        recorder.RecordEvent(new RunEvent(1.25, "target-down", "open", "connection refused"));
        recorder.RecordEvent(new RunEvent(2, "note", null, "ramp done"));
        Assert.Throws<ArgumentException>(() => recorder.RecordEvent(new RunEvent(2, "note", "missing", "x")));
        recorder.Complete();

        var run = RawRunReader.Read(runDirectory, out var warnings);
        Assert.Empty(warnings);
        Assert.Equal(manifest.RunId, run.Manifest.RunId);
        Assert.Equal(manifest.StartedAt, run.Manifest.StartedAt);
        Assert.Equal(manifest.ProfileDefinition, run.Manifest.ProfileDefinition);
        Assert.Equal(manifest.Machine, run.Manifest.Machine);
        Assert.Equal("1000", run.Manifest.Series[0].Parameters["iterations"]);
        Assert.Equal(1.5, run.Manifest.Series[0].IdealLatencyMs);
        Assert.Null(run.Manifest.Series[0].IdealThroughput);
        Assert.Equal(1, run.Manifest.Series[1].OffsetSeconds);

        var open = Assert.Single(run.Timelines["open"]);
        Assert.Equal((0, 50, 2L, 1L), (open.Second, open.Users, open.Requests, open.Failures));
        Assert.Equal(new Dictionary<string, long> { ["http-413"] = 1 }, open.StatusCounts);
        Assert.Equal(new Dictionary<string, long> { ["OK"] = 1 }, open.SuccessCounts);
        Assert.Equal((1L, 2_000L), (open.Latency.TotalCount, open.Latency.MaxMicroseconds));
        Assert.Equal((1L, 4_000L), (open.FailureLatency!.TotalCount, open.FailureLatency.MaxMicroseconds));
        Assert.Equal(30_000, open.IntendedLatency!.SumMicroseconds);
        Assert.Equal(1, open.Server["harness_info{service=\"grpc\",mode=\"iocp\"}"]);
        Assert.True(double.IsNaN(open.Server["up"]));
        Assert.Equal(double.PositiveInfinity, open.Server["high"]);
        Assert.Equal(double.NegativeInfinity, open.Server["low"]);

        var closed = Assert.Single(run.Timelines["closed"]);
        Assert.Equal(2, closed.Second);
        Assert.Null(closed.IntendedLatency);
        Assert.Null(closed.FailureLatency);
        Assert.Null(closed.ServerTime);
        Assert.Equal(new Dictionary<string, long> { [RunRecorder.SuccessStatus] = 1 }, closed.SuccessCounts);
        var closedLine = File.ReadAllText(RawRunFiles.SeriesPath(runDirectory, "closed"));
        Assert.DoesNotContain("intendedLatency", closedLine);
        Assert.DoesNotContain("failureLatency", closedLine);
        Assert.StartsWith("""{"second":2,"users":0,"requests":1,"failures":0,"statusCounts":{},"latency":""", closedLine);
        Assert.Contains("\"successCounts\":{\"OK\":1}", closedLine);

        Assert.Equal([new RunEvent(1.25, "target-down", "open", "connection refused"), new RunEvent(2, "note", null, "ramp done")], run.Events);
        Assert.DoesNotContain("seriesId", File.ReadAllLines(RawRunFiles.EventsPath(runDirectory))[1]);
    }

    [Fact]
    public void Server_and_queue_time_of_successes_and_the_latency_of_failures_round_trip_as_their_own_histograms()
    {
        var runDirectory = _directory.Sub("run");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);
        var expected = (Latency: new LatencyHistogram(), Failed: new LatencyHistogram(), Server: new LatencyHistogram(), Queue: new LatencyHistogram());
        var random = new Random(3);
        for (var i = 0; i < 3_000; i++)
        {
            var latency = TimeSpan.FromMicroseconds(random.Next(100, 2_000_000));
            var completedAt = TimeSpan.FromSeconds(i / 1_000.0);
            if (i % 7 == 0)
            {
                recorder.RecordRequest("a", completedAt, latency, null, false, "timeout", serverTime: TimeSpan.FromSeconds(9));
                expected.Failed.Record(latency);
            }
            else if (i % 5 == 0)
            {
                // A success without a server time (a reply that did not carry one) has neither server nor queue time.
                recorder.RecordRequest("a", completedAt, latency, null, true, null);
                expected.Latency.Record(latency);
            }
            else
            {
                // Some server times exceed the latency (clocks differ): their queue time is clamped at 0.
                var server = TimeSpan.FromMicroseconds(random.Next(0, (int)(latency.TotalMicroseconds * 1.2)));
                recorder.RecordRequest("a", completedAt, latency, null, true, null, server);
                expected.Latency.Record(latency);
                expected.Server.Record(server);
                expected.Queue.Record(server < latency ? latency - server : TimeSpan.Zero);
            }
        }

        recorder.EndSeries("a", 3_000);
        recorder.Complete();

        var run = RawRunReader.Read(runDirectory, out var warnings);
        Assert.Empty(warnings);
        var timeline = run.Timelines["a"];
        Assert.Equal(3, timeline.Count);
        Assert.Equal(expected.Latency.Encode(), LatencyHistogram.Merge(timeline.Select(s => s.Latency)).Encode());
        Assert.Equal(expected.Failed.Encode(), LatencyHistogram.Merge(timeline.Select(s => s.FailureLatency!)).Encode());
        Assert.Equal(expected.Server.Encode(), LatencyHistogram.Merge(timeline.Select(s => s.ServerTime!)).Encode());
        Assert.Equal(expected.Queue.Encode(), LatencyHistogram.Merge(timeline.Select(s => s.QueueTime!)).Encode());
        Assert.Equal(0, expected.Queue.MinMicroseconds);
        Assert.Equal(3_000, Assert.Single(run.Manifest.Series).TotalRequests);
        Assert.Equal(3, run.Manifest.FormatVersion);
    }

    [Fact]
    public void The_series_fields_of_format_3_round_trip_and_end_series_records_the_total_at_once()
    {
        var runDirectory = _directory.Sub("run");
        var series = TestRuns.Series("grpc-compute-iocp-2") with { WarmUpSeconds = 2.5, Repetition = 2, IdealMethod = "one call alone before the series" };
        using var recorder = new RunRecorder(TestRuns.Manifest("agent-1", series), runDirectory);
        Assert.Null(RawRunReader.ReadManifest(RawRunFiles.ManifestPath(runDirectory)).Series[0].TotalRequests);

        recorder.EndSeries("grpc-compute-iocp-2", 1234);

        // run.json is rewritten at once: a crash after the series ended keeps the total.
        var read = Assert.Single(RawRunReader.ReadManifest(RawRunFiles.ManifestPath(runDirectory)).Series);
        Assert.Equal(series with { TotalRequests = 1234 }, read with { Parameters = series.Parameters });
        Assert.Equal("1000", read.Parameters["iterations"]);
        Assert.Throws<ArgumentException>(() => recorder.EndSeries("missing", 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.EndSeries("grpc-compute-iocp-2", -1));
    }

    [Fact]
    public void Set_warm_up_records_a_warm_up_whose_length_the_load_decided_at_once()
    {
        var runDirectory = _directory.Sub("run");
        using var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a"), TestRuns.Series("b")), runDirectory);

        recorder.SetWarmUp("a", 3);

        // run.json is rewritten at once, and only the series named changes.
        var read = RawRunReader.ReadManifest(RawRunFiles.ManifestPath(runDirectory)).Series;
        Assert.Equal([3.0, 0.0], read.Select(s => s.WarmUpSeconds));
        Assert.Throws<ArgumentException>(() => recorder.SetWarmUp("missing", 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.SetWarmUp("a", -1));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.SetWarmUp("a", double.NaN));
    }

    [Fact]
    public void Set_ideal_records_an_ideal_measured_after_the_load_at_once()
    {
        var runDirectory = _directory.Sub("run");
        using var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a"), TestRuns.Series("b")), runDirectory);

        recorder.SetIdeal("b", 12.5, 160, "median of 10 lone calls");

        var read = RawRunReader.ReadManifest(RawRunFiles.ManifestPath(runDirectory)).Series;
        Assert.Equal((12.5, 160.0, "median of 10 lone calls"), (read[1].IdealLatencyMs, read[1].IdealThroughput, read[1].IdealMethod));
        Assert.Equal(TestRuns.Series("a").IdealLatencyMs, read[0].IdealLatencyMs);
        recorder.SetIdeal("b", null, null, null);
        Assert.Null(RawRunReader.ReadManifest(RawRunFiles.ManifestPath(runDirectory)).Series[1].IdealLatencyMs);
        Assert.Throws<ArgumentException>(() => recorder.SetIdeal("missing", 1, 1, null));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.SetIdeal("a", 0, 1, null));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.SetIdeal("a", 1, double.PositiveInfinity, null));
    }

    [Fact]
    public void Misuse_is_refused()
    {
        var runDirectory = _directory.Sub("run");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);
        Assert.Throws<ArgumentException>(() => recorder.AddSeries(TestRuns.Series("a")));
        Assert.Throws<ArgumentException>(() => recorder.AddSeries(TestRuns.Series("../escape")));
        Assert.Throws<ArgumentException>(() => recorder.RecordRequest("b", TimeSpan.Zero, TimeSpan.Zero, null, true, null));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.RecordRequest("a", TimeSpan.FromSeconds(-1), TimeSpan.Zero, null, true, null));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.RecordRequest("a", TimeSpan.Zero, TimeSpan.FromTicks(-1), null, true, null));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.RecordRequest("a", TimeSpan.Zero, TimeSpan.Zero, null, true, null, TimeSpan.FromTicks(-1)));
        Assert.Contains("warmUpSeconds", Assert.Throws<ArgumentException>(() => recorder.AddSeries(TestRuns.Series("w") with { WarmUpSeconds = -1 })).Message);
        Assert.Contains("repetition", Assert.Throws<ArgumentException>(() => recorder.AddSeries(TestRuns.Series("r") with { Repetition = -1 })).Message);
        Assert.Throws<IOException>(() => new RunRecorder(TestRuns.Manifest("agent-2"), runDirectory));
        Assert.Throws<ArgumentException>(() => new RunRecorder(TestRuns.Manifest("agent-1") with { FormatVersion = RunManifest.CurrentFormatVersion + 1 }, _directory.Sub("other")));

        recorder.Complete();
        Assert.Throws<InvalidOperationException>(() => recorder.RecordRequest("a", TimeSpan.Zero, TimeSpan.Zero, null, true, null));
        Assert.Throws<InvalidOperationException>(() => recorder.RecordUsers("a", 9, 1));
        Assert.Throws<InvalidOperationException>(() => recorder.AddSeries(TestRuns.Series("c")));
        Assert.Throws<InvalidOperationException>(() => recorder.EndSeries("a", 0));
        Assert.Throws<InvalidOperationException>(recorder.Complete);
        recorder.Tick(TimeSpan.FromSeconds(100));
        recorder.Dispose();
        Assert.Empty(RawRunReader.Read(runDirectory).Timelines["a"]);
    }
}
