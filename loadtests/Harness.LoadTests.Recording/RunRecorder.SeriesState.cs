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
        public StreamBuilder? Stream;

        public void Success(TimeSpan latency, TimeSpan? latencyFromIntendedStart, string status, TimeSpan? serverTime, StreamCall? stream)
        {
            Requests++;
            Latency.Record(latency);
            Count(SuccessCounts ??= new Dictionary<string, long>(StringComparer.Ordinal), status);
            if (latencyFromIntendedStart is { } intended)
            {
                (IntendedLatency ??= new LatencyHistogram()).Record(intended);
            }

            if (serverTime is { } execution)
            {
                (ServerTime ??= new LatencyHistogram()).Record(execution);
                (QueueTime ??= new LatencyHistogram()).Record(latency > execution ? latency - execution : TimeSpan.Zero);
            }

            if (stream is not null)
            {
                (Stream ??= new StreamBuilder()).Add(stream);
            }
        }

        public void Failure(TimeSpan latency, string status)
        {
            Requests++;
            Failures++;
            (FailureLatency ??= new LatencyHistogram()).Record(latency);
            Count(StatusCounts ??= new Dictionary<string, long>(StringComparer.Ordinal), status);
        }

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
                FailureLatency, ServerTime, QueueTime, SuccessCounts, Stream?.ToSample());
        }

        // One lookup per request (this is on every request's path), not a read and a write.
        private static void Count(Dictionary<string, long> counts, string status) =>
            CollectionsMarshal.GetValueRefOrAddDefault(counts, status, out _)++;
    }

    private sealed class StreamBuilder
    {
        public long Calls;
        public long MessagesSent;
        public long MessagesReceived;
        public readonly LatencyHistogram FirstMessage = new();
        public readonly LatencyHistogram MessageGap = new();

        public void Add(StreamCall call)
        {
            Calls++;
            MessagesSent += call.MessagesSent;
            MessagesReceived += call.MessagesReceived;
            if (call.FirstMessage is { } first)
            {
                FirstMessage.Record(first);
            }

            foreach (var gap in call.MessageGaps)
            {
                MessageGap.Record(gap);
            }
        }

        public StreamSample ToSample()
        {
            FirstMessage.Compact();
            MessageGap.Compact();
            return new(Calls, MessagesSent, MessagesReceived, FirstMessage, MessageGap);
        }
    }
}
