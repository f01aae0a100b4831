using System.Text;

namespace Harness.LoadTests.Recording.Tests;

public sealed class RawRunReaderTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_corrupt_line_before_the_last_names_the_file_and_line()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100), TestRuns.Sample(1, 200), TestRuns.Sample(2, 300));
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        var lines = File.ReadAllLines(path);
        lines[1] = lines[1].Replace("\"hdr\":\"", "\"hdr\":\"x", StringComparison.Ordinal);
        File.WriteAllLines(path, lines);

        var exception = Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory));
        Assert.Equal(path, exception.FilePath);
        Assert.Equal(2, exception.Line);
        Assert.Contains($"{path}, line 2:", exception.Message);
        Assert.Contains("latency histogram", exception.Message);
    }

    [Theory]
    [InlineData("{\"second\":3,\"users\":1,\"requ")]
    [InlineData("\0\0\0\0\0\0\0\0")]
    [InlineData("{\"second\":3}\n")]
    public void A_damaged_last_line_is_skipped_with_a_warning(string tail)
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100), TestRuns.Sample(1, 200));
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        File.AppendAllText(path, tail);
        File.AppendAllText(RawRunFiles.EventsPath(runDirectory), "{\"atSeconds\":1,\"ki");

        var run = RawRunReader.Read(runDirectory, out var warnings);
        Assert.Equal([0, 1], run.Timelines["a"].Select(sample => sample.Second));
        Assert.Single(run.Events);
        Assert.Equal(2, warnings.Count);
        Assert.StartsWith($"{path}, line 3: last line unreadable", warnings[0]);
        Assert.StartsWith($"{RawRunFiles.EventsPath(runDirectory)}, line 2: last line unreadable", warnings[1]);
    }

    [Fact]
    public void A_truncated_series_file_warns_of_its_cut_line_and_of_the_requests_it_lost()
    {
        var runDirectory = _directory.Sub("run");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);
        for (var i = 0; i < 300; i++)
        {
            recorder.RecordRequest("a", TimeSpan.FromSeconds(i / 100.0), TimeSpan.FromMilliseconds(5), null, true, null);
        }

        recorder.EndSeries("a", 300);
        recorder.Complete();
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        var text = File.ReadAllText(path);
        var secondLine = text.IndexOf('\n', StringComparison.Ordinal) + 1;
        File.WriteAllText(path, text[..(secondLine + 40)]);

        var run = RawRunReader.Read(runDirectory, out var warnings);

        Assert.Equal([0], run.Timelines["a"].Select(s => s.Second));
        Assert.Equal(2, warnings.Count);
        Assert.StartsWith($"{path}, line 2: last line unreadable", warnings[0], StringComparison.Ordinal);
        Assert.Equal("series a: file damaged, 200 of 300 requests lost (its file holds 100).", warnings[1]);
    }

    [Fact]
    public void A_garbage_line_anywhere_in_the_events_is_skipped_with_a_warning_and_the_other_events_kept()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100));
        var path = RawRunFiles.EventsPath(runDirectory);
        File.WriteAllText(path, File.ReadAllText(path) + "this is not json\n" + """{"atSeconds":2,"kind":"note","message":"after"}""" + "\n");

        var run = RawRunReader.Read(runDirectory, out var warnings);

        Assert.Equal(["started", "after"], run.Events.Select(e => e.Message));
        Assert.StartsWith($"{path}, line 2: unreadable (not a valid RunEvent", Assert.Single(warnings), StringComparison.Ordinal);
    }

    [Fact]
    public void A_damaged_line_followed_by_whole_lines_is_an_error()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100));
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        var valid = File.ReadAllText(path);
        File.WriteAllText(path, "{\"second\":3,\"users\":1,\"requ\n" + valid.Replace("\"second\":0", "\"second\":4", StringComparison.Ordinal));

        var exception = Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory));
        Assert.Equal(1, exception.Line);
    }

    [Fact]
    public void Seconds_must_increase()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100));
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        var line = File.ReadAllText(path);
        File.AppendAllText(path, line + line.Replace("\"second\":0", "\"second\":1", StringComparison.Ordinal));

        var exception = Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory));
        Assert.Equal(2, exception.Line);
        Assert.Contains("second 0 follows second 0", exception.Message);
    }

    [Theory]
    [InlineData("\"requests\":1", "\"requests\":2", "latency holds 1 values for 2 successful requests")]
    [InlineData("\"failures\":0", "\"failures\":-1", "negative")]
    [InlineData(",\"server\":{}", "", "required")]
    [InlineData("\"users\":1", "\"users\":\"many\"", "not a valid SecondSample")]
    public void Inconsistent_samples_are_refused(string field, string replacement, string reason)
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100), TestRuns.Sample(1, 100));
        AssertFirstLineEditIsRefused(runDirectory, field, replacement, reason);
    }

    [Fact]
    public void Another_format_version_is_refused_by_name()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100));
        var path = RawRunFiles.ManifestPath(runDirectory);
        File.WriteAllText(path, File.ReadAllText(path).Replace("\"formatVersion\": 3", "\"formatVersion\": 4", StringComparison.Ordinal));

        var exception = Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory));
        Assert.Equal(path, exception.FilePath);
        Assert.Null(exception.Line);
        Assert.Contains("format version 4 is not supported; this reader knows versions 2 to 3", exception.Message);
    }

    [Fact]
    public void A_format_2_run_still_loads_with_the_latency_of_every_request_and_no_format_3_fields()
    {
        // Written as version 2 wrote it: latency holds all 3 requests (one failed), no failureLatency, no series fields of version 3.
        var runDirectory = _directory.Sub("v2");
        Directory.CreateDirectory(RawRunFiles.SeriesDirectory(runDirectory));
        var latency = new LatencyHistogram();
        foreach (var value in new long[] { 1_000, 2_000, 9_000 })
        {
            latency.Record(value);
        }

        var e = latency.Encode();
        File.WriteAllText(RawRunFiles.ManifestPath(runDirectory), """
            {
              "formatVersion": 2, "runId": "old", "startedAt": "2026-01-02T03:04:05+00:00", "profile": "quick",
              "profileDefinition": "{}", "timeScale": 1, "modes": ["iocp"],
              "series": [{ "id": "grpc-compute-iocp", "stack": "grpc", "operation": "compute", "mode": "iocp",
                           "target": "http://127.0.0.1:5001", "model": "closed", "parameters": {}, "offsetSeconds": 0, "idealLatencyMs": 1.5 }],
              "machine": { "processorCount": 2, "operatingSystem": "Linux", "runtimeVersion": "10.0.0", "harnessVersion": "1.0.0" },
              "commandLine": "harness run", "agents": ["agent-1"]
            }
            """);
        File.WriteAllText(RawRunFiles.SeriesPath(runDirectory, "grpc-compute-iocp"),
            $$$"""{"second":0,"users":4,"requests":3,"failures":1,"statusCounts":{"timeout":1},"latency":{"count":{{{e.Count}}},"min":{{{e.Min}}},"max":{{{e.Max}}},"sum":{{{e.Sum}}},"clamped":0,"hdr":"{{{e.Hdr}}}"},"server":{}}""" + "\n");
        File.WriteAllText(RawRunFiles.EventsPath(runDirectory), "");

        var run = RawRunReader.Read(runDirectory, out var warnings);

        Assert.Empty(warnings);
        Assert.Equal(2, run.Manifest.FormatVersion);
        Assert.False(run.Manifest.SeparatesFailures);
        var series = Assert.Single(run.Manifest.Series);
        Assert.Equal((0.0, 0, (string?)null, (long?)null), (series.WarmUpSeconds, series.Repetition, series.IdealMethod, series.TotalRequests));
        var sample = Assert.Single(run.Timelines["grpc-compute-iocp"]);
        Assert.Equal((3L, 9_000L), (sample.Latency.TotalCount, sample.Latency.MaxMicroseconds));
        Assert.Null(sample.FailureLatency);
        Assert.Null(sample.ServerTime);
        Assert.Null(sample.QueueTime);
    }

    [Theory]
    [InlineData("\"requests\":2", "\"requests\":3", "latency holds 1 values for 2 successful requests")]
    [InlineData(",\"failureLatency\":", ",\"ignored\":", "failureLatency holds 0 values for 1 failures")]
    [InlineData(",\"queueTime\":", ",\"ignored\":", "queueTime and serverTime hold different numbers")]
    [InlineData("\"successCounts\":{\"OK\":1}", "\"successCounts\":{\"OK\":2}", "successCounts add up to 2, not the 1 successful requests")]
    [InlineData("\"successCounts\":{\"OK\":1}", "\"successCounts\":{\"OK\":-1}", "negative status count")]
    public void Format_3_samples_whose_histograms_disagree_with_their_counts_are_refused(string field, string replacement, string reason)
    {
        var runDirectory = _directory.Sub("v3");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);
        recorder.RecordRequest("a", TimeSpan.Zero, TimeSpan.FromMilliseconds(3), null, true, null, TimeSpan.FromMilliseconds(1));
        recorder.RecordRequest("a", TimeSpan.Zero, TimeSpan.FromMilliseconds(5), null, false, "timeout");
        recorder.RecordUsers("a", 1, 1);
        recorder.Complete();
        AssertFirstLineEditIsRefused(runDirectory, field, replacement, reason);
    }

    [Fact]
    public void A_manifest_missing_a_field_or_not_json_is_refused()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100));
        var path = RawRunFiles.ManifestPath(runDirectory);
        var text = File.ReadAllText(path);
        File.WriteAllText(path, text.Replace("\"runId\"", "\"runName\"", StringComparison.Ordinal));
        Assert.Contains("required", Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory)).Message);
        File.WriteAllText(path, text[..^20]);
        Assert.Contains("not a valid run manifest", Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory)).Message);
        Assert.Throws<FileNotFoundException>(() => RawRunReader.Read(_directory.Sub("none")));
    }

    [Fact]
    public void Series_files_are_read_as_the_manifest_lists_them()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100));
        File.WriteAllText(Path.Combine(RawRunFiles.SeriesDirectory(runDirectory), "stray.jsonl"), "");
        File.Delete(RawRunFiles.SeriesPath(runDirectory, "a"));

        var run = RawRunReader.Read(runDirectory, out var warnings);
        Assert.Empty(run.Timelines["a"]);
        Assert.False(run.Timelines.ContainsKey("stray"));
        Assert.Contains("stray.jsonl: not a series of run.json; ignored.", Assert.Single(warnings));
    }

    [Fact]
    public void Blank_lines_crlf_endings_and_a_byte_order_mark_are_accepted()
    {
        var runDirectory = WriteRun(TestRuns.Sample(0, 100), TestRuns.Sample(1, 200));
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        File.WriteAllText(path, "\r\n" + string.Join("\r\n\r\n", File.ReadAllLines(path)) + "\r\n", Encoding.UTF8);

        var run = RawRunReader.Read(runDirectory, out var warnings);
        Assert.Empty(warnings);
        Assert.Equal([100L, 200L], run.Timelines["a"].Select(sample => sample.Latency.MaxMicroseconds));
    }

    private string WriteRun(params SecondSample[] samples)
    {
        var runDirectory = _directory.Sub("run");
        var manifest = TestRuns.Manifest("agent-1", TestRuns.Series("a"));
        RawRunWriter.Write(runDirectory, new RunData(
            manifest,
            new Dictionary<string, IReadOnlyList<SecondSample>> { ["a"] = samples },
            [new RunEvent(0.5, "note", "a", "started")]));
        return runDirectory;
    }

    // Replaces field in series a's first line and expects the reader to refuse that line, naming the reason.
    private static void AssertFirstLineEditIsRefused(string runDirectory, string field, string replacement, string reason)
    {
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        var lines = File.ReadAllLines(path);
        Assert.Contains(field, lines[0]);
        lines[0] = lines[0].Replace(field, replacement, StringComparison.Ordinal);
        File.WriteAllLines(path, lines);

        var exception = Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory));
        Assert.Equal(1, exception.Line);
        Assert.Contains(reason, exception.Message);
    }
}
