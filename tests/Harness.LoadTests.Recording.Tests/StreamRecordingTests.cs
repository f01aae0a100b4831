namespace Harness.LoadTests.Recording.Tests;

/// <summary>Streaming calls' messages: recorded in the second the call ended, round-tripped, merged and checked on read.</summary>
public sealed class StreamRecordingTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_seconds_streams_round_trip_with_their_messages_first_message_and_gaps_and_unary_seconds_have_none()
    {
        // Arrange
        var runDirectory = _directory.Sub("run");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);
        static TimeSpan Ms(int value) => TimeSpan.FromMilliseconds(value);

        // Act: second 0 has two streams and a failed one (not counted); second 1 a unary call only.
        recorder.RecordRequest("a", Ms(100), Ms(20), null, true, null, stream: new StreamCall(1, 3, Ms(5), [Ms(1), Ms(2)]));
        recorder.RecordRequest("a", Ms(200), Ms(30), null, true, null, stream: new StreamCall(4, 1, Ms(30), []));
        recorder.RecordRequest("a", Ms(300), Ms(40), null, false, "DEADLINE_EXCEEDED", stream: new StreamCall(9, 9, Ms(1), [Ms(1)]));
        recorder.RecordRequest("a", Ms(1_100), Ms(10), null, true, null);
        recorder.EndSeries("a", 4);
        recorder.Complete();
        var run = RawRunReader.Read(runDirectory, out var warnings);

        // Assert
        Assert.Empty(warnings);
        var (first, second) = (run.Timelines["a"][0], run.Timelines["a"][1]);
        var stream = first.Stream!;
        Assert.Equal((2L, 5L, 4L), (stream.Calls, stream.MessagesSent, stream.MessagesReceived));
        Assert.Equal(2, stream.FirstMessage.TotalCount);
        Assert.Equal(30_000, stream.FirstMessage.MaxMicroseconds);
        Assert.Equal(2, stream.MessageGap.TotalCount);
        Assert.Equal(2_000, stream.MessageGap.MaxMicroseconds);
        Assert.Null(second.Stream);
        Assert.DoesNotContain("\"stream\"", File.ReadAllLines(RawRunFiles.SeriesPath(runDirectory, "a"))[1]);
    }

    [Fact]
    public void Inconsistent_stream_figures_are_refused_when_recorded()
    {
        using var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), _directory.Sub("run"));
        static TimeSpan Ms(int value) => TimeSpan.FromMilliseconds(value);

        Assert.Throws<ArgumentException>(() => recorder.RecordRequest("a", Ms(1), Ms(1), null, true, null, stream: new StreamCall(1, 0, Ms(1), [])));
        Assert.Throws<ArgumentException>(() => recorder.RecordRequest("a", Ms(1), Ms(1), null, true, null, stream: new StreamCall(1, 2, Ms(1), [Ms(1), Ms(1)])));
        Assert.Throws<ArgumentOutOfRangeException>(() => recorder.RecordRequest("a", Ms(1), Ms(1), null, true, null, stream: new StreamCall(-1, 0, null, [])));
    }

    [Fact]
    public void Merged_seconds_sum_their_streams_and_keep_a_second_without_one()
    {
        static TimeSpan Ms(int value) => TimeSpan.FromMilliseconds(value);
        var a = Second(new StreamCall(1, 3, Ms(5), [Ms(1), Ms(2)]));
        var b = Second(new StreamCall(2, 2, Ms(7), [Ms(4)]));
        var unary = Second(null);

        var merged = RunMerger.MergeSecond(0, [a, unary, b]);

        Assert.Equal((2L, 3L, 5L), (merged.Stream!.Calls, merged.Stream.MessagesSent, merged.Stream.MessagesReceived));
        Assert.Equal(2, merged.Stream.FirstMessage.TotalCount);
        Assert.Equal(3, merged.Stream.MessageGap.TotalCount);
        Assert.Null(RunMerger.MergeSecond(0, [unary]).Stream);
    }

    [Fact]
    public void A_file_whose_stream_counts_more_calls_than_successes_is_refused()
    {
        // Arrange: a second recorded honestly, then edited to claim a stream for a failed call.
        var runDirectory = _directory.Sub("run");
        var recorder = new RunRecorder(TestRuns.Manifest("agent-1", TestRuns.Series("a")), runDirectory);
        recorder.RecordRequest("a", TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(5), null, true, null, stream: new StreamCall(1, 1, TimeSpan.FromMilliseconds(5), []));
        recorder.RecordRequest("a", TimeSpan.FromMilliseconds(1_100), TimeSpan.FromMilliseconds(5), null, true, null);
        recorder.Complete();
        var path = RawRunFiles.SeriesPath(runDirectory, "a");
        var lines = File.ReadAllLines(path);
        File.WriteAllLines(path, [lines[0].Replace("\"calls\":1", "\"calls\":2", StringComparison.Ordinal), lines[1]]);

        // Act
        var error = Assert.Throws<RawRunFormatException>(() => RawRunReader.Read(runDirectory, out _));

        // Assert
        Assert.Contains("stream counts 2 calls among 1 successful requests", error.Message);
    }

    private static SecondSample Second(StreamCall? call)
    {
        var latency = new LatencyHistogram();
        latency.Record(TimeSpan.FromMilliseconds(5));
        StreamSample? stream = null;
        if (call is not null)
        {
            var (first, gaps) = (new LatencyHistogram(), new LatencyHistogram());
            first.Record(call.FirstMessage!.Value);
            foreach (var gap in call.MessageGaps)
            {
                gaps.Record(gap);
            }

            stream = new StreamSample(1, call.MessagesSent, call.MessagesReceived, first, gaps);
        }

        return new SecondSample(0, 1, 1, 0, new Dictionary<string, long>(), latency, null, new Dictionary<string, double>(), Stream: stream);
    }
}
