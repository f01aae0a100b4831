using System.Collections.ObjectModel;
using System.Runtime.InteropServices;

namespace Harness.LoadTests.Recording;

// What the recorder holds per series while the run goes: its open seconds, each a builder of one SecondSample.
public sealed partial class RunRecorder
{
    private sealed class SeriesState(SeriesInfo info)
    {
        public readonly Lock Gate = new();
        public readonly SeriesInfo Info = info;
        public readonly Dictionary<int, SecondBuilder> OpenSeconds = [];
        public int FlushedThrough = -1;
        public bool Closed;
        public long LateRequests;
        public long DroppedLateSamples;

        public SecondBuilder Open(int second)
        {
            if (!OpenSeconds.TryGetValue(second, out var builder))
            {
                builder = new SecondBuilder();
                OpenSeconds.Add(second, builder);
            }

            return builder;
        }
    }

    private sealed class SecondBuilder
    {
        private static readonly IReadOnlyDictionary<string, long> NoStatus = ReadOnlyDictionary<string, long>.Empty;
        private static readonly IReadOnlyDictionary<string, double> NoServer = ReadOnlyDictionary<string, double>.Empty;

        public int Users;
        public long Requests;
        public long Failures;
        public Dictionary<string, long>? StatusCounts;
        public Dictionary<string, long>? SuccessCounts;
        public readonly LatencyHistogram Latency = new();
        public LatencyHistogram? IntendedLatency;
        public LatencyHistogram? FailureLatency;
        public LatencyHistogram? ServerTime;
        public LatencyHistogram? QueueTime;
        public Dictionary<string, double>? Server;

        public void CountSuccess(string status) => Count(SuccessCounts ??= new Dictionary<string, long>(StringComparer.Ordinal), status);

        public void CountFailure(string status) => Count(StatusCounts ??= new Dictionary<string, long>(StringComparer.Ordinal), status);

        public SecondSample ToSample(int second)
        {
            // A finished second is never written again: keep its counters compressed for the rest of the run.
            Latency.Compact();
            IntendedLatency?.Compact();
            FailureLatency?.Compact();
            ServerTime?.Compact();
            QueueTime?.Compact();
            return new(
                second, Users, Requests, Failures, StatusCounts ?? NoStatus, Latency, IntendedLatency, Server ?? NoServer,
                FailureLatency, ServerTime, QueueTime, SuccessCounts);
        }

        // One lookup per request (this is on every request's path), not a read and a write.
        private static void Count(Dictionary<string, long> counts, string status) =>
            CollectionsMarshal.GetValueRefOrAddDefault(counts, status, out _)++;
    }
}
