using HdrHistogram;
using HdrHistogram.Utilities;

namespace Harness.LoadTests.Recording;

/// <summary>
/// A latency histogram in microseconds on HdrHistogram's <see cref="LongHistogram"/>: every value from 1 µs to
/// <see cref="HighestTrackableMicroseconds"/> is kept to three significant digits (0.1 %), so percentiles are
/// accurate and two histograms merge exactly by adding their counts. Beside the counts it keeps what HdrHistogram
/// only approximates: the exact minimum, maximum and sum (for an exact mean). Not thread-safe.
/// </summary>
/// <remarks>
/// An HdrHistogram of this range holds 24,576 counters (192 KB). A run keeps one per series per second, hours
/// long in a soak, so <see cref="Compact"/> swaps a finished second's counters for HdrHistogram's compressed
/// encoding (a few hundred bytes); reads decode it on demand and the next write expands it again.
/// </remarks>
public sealed class LatencyHistogram
{
    /// <summary>One hour; slower values are clamped to it and counted in <see cref="ClampedCount"/>.</summary>
    public const long HighestTrackableMicroseconds = 3_600_000_000;

    /// <summary>HdrHistogram's precision: three significant digits.</summary>
    public const int SignificantDigits = 3;

    private LongHistogram? _live;
    private byte[]? _compressed;

    public long TotalCount { get; private set; }

    /// <summary>Values above <see cref="HighestTrackableMicroseconds"/> that were recorded as that ceiling.</summary>
    public long ClampedCount { get; private set; }

    /// <summary>Exact smallest value recorded; 0 when empty.</summary>
    public long MinMicroseconds { get; private set; }

    /// <summary>Exact largest value recorded; 0 when empty.</summary>
    public long MaxMicroseconds { get; private set; }

    /// <summary>Exact sum of the values recorded, for an exact mean.</summary>
    public long SumMicroseconds { get; private set; }

    public double MeanMicroseconds => TotalCount == 0 ? 0 : (double)SumMicroseconds / TotalCount;

    /// <summary>Whether the counters are held compressed (see <see cref="Compact"/>).</summary>
    public bool IsCompact => _compressed is not null;

    public void Record(TimeSpan latency) => Record(latency.Ticks / TimeSpan.TicksPerMicrosecond);

    public void Record(long microseconds) => RecordValues(microseconds, 1);

    /// <summary>Records <paramref name="count"/> occurrences of one value.</summary>
    public void RecordValues(long microseconds, long count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(microseconds);
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        if (microseconds > HighestTrackableMicroseconds)
        {
            microseconds = HighestTrackableMicroseconds;
            ClampedCount += count;
        }

        Live().RecordValueWithCount(microseconds, count);
        MinMicroseconds = TotalCount == 0 ? microseconds : Math.Min(MinMicroseconds, microseconds);
        MaxMicroseconds = Math.Max(MaxMicroseconds, microseconds);
        TotalCount += count;
        SumMicroseconds += microseconds * count;
    }

    /// <summary>Adds every count of <paramref name="other"/>; the result is the histogram of both sets of values.</summary>
    public void Add(LatencyHistogram other)
    {
        ArgumentNullException.ThrowIfNull(other);
        if (other.TotalCount == 0)
        {
            return;
        }

        // Read the other's counts before expanding this one: when adding to itself, Live() would drop the encoding.
        var counts = other.Counts();
        Live().Add(counts);
        MinMicroseconds = TotalCount == 0 ? other.MinMicroseconds : Math.Min(MinMicroseconds, other.MinMicroseconds);
        MaxMicroseconds = Math.Max(MaxMicroseconds, other.MaxMicroseconds);
        TotalCount += other.TotalCount;
        SumMicroseconds += other.SumMicroseconds;
        ClampedCount += other.ClampedCount;
    }

    public static LatencyHistogram Merge(IEnumerable<LatencyHistogram> histograms)
    {
        var merged = new LatencyHistogram();
        foreach (var histogram in histograms)
        {
            merged.Add(histogram);
        }

        return merged;
    }

    /// <summary>
    /// The value at or below which <paramref name="percentile"/> % of the values fall, as HdrHistogram reports it
    /// (the highest value equivalent to the bucket holding that rank), never above the exact maximum.
    /// </summary>
    public long ValueAtPercentile(double percentile) => ValuesAtPercentiles([percentile])[0];

    /// <summary>Several percentiles from one read of the counts (one decode when the histogram is compact).</summary>
    public long[] ValuesAtPercentiles(ReadOnlySpan<double> percentiles)
    {
        foreach (var percentile in percentiles)
        {
            if (double.IsNaN(percentile) || percentile < 0 || percentile > 100)
            {
                throw new ArgumentOutOfRangeException(nameof(percentiles), percentile, "A percentile must be between 0 and 100.");
            }
        }

        var values = new long[percentiles.Length];
        if (TotalCount == 0)
        {
            return values;
        }

        var counts = Counts();
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = Math.Min(counts.GetValueAtPercentile(percentiles[i]), MaxMicroseconds);
        }

        return values;
    }

    /// <summary>The buckets in value order: the lowest value each bucket stands for, and its count.</summary>
    public IEnumerable<(long LowestMicroseconds, long Count)> Buckets() =>
        TotalCount == 0 ? [] : BucketsOf(Counts());

    private static List<(long, long)> BucketsOf(LongHistogram counts) =>
        counts.RecordedValues().Select(v => (counts.LowestEquivalentValue(v.ValueIteratedTo), v.CountAtValueIteratedTo)).ToList();

    /// <summary>Swaps the counters for HdrHistogram's compressed encoding until the next write; reads still work.</summary>
    public void Compact()
    {
        if (_live is null)
        {
            return;
        }

        _compressed = Compress(_live);
        _live = null;
    }

    /// <summary>The histogram as stored in the raw run files (<c>docs/raw-format.md</c>).</summary>
    public EncodedLatency Encode() => new(
        TotalCount, MinMicroseconds, MaxMicroseconds, SumMicroseconds, ClampedCount,
        Convert.ToBase64String(_compressed ?? Compress(Counts())));

    /// <summary>Reads an <see cref="Encode"/> result back, compact, checking that its fields and counts agree.</summary>
    /// <exception cref="FormatException">The fields or the HdrHistogram encoding are damaged or disagree.</exception>
    public static LatencyHistogram Decode(EncodedLatency encoded)
    {
        ArgumentNullException.ThrowIfNull(encoded);
        byte[] compressed;
        LongHistogram counts;
        try
        {
            compressed = Convert.FromBase64String(encoded.Hdr);
            counts = Decompress(compressed);
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            throw new FormatException($"The 'hdr' field is not an HdrHistogram compressed encoding: {ex.Message}", ex);
        }

        var histogram = new LatencyHistogram
        {
            TotalCount = encoded.Count,
            MinMicroseconds = encoded.Min,
            MaxMicroseconds = encoded.Max,
            SumMicroseconds = encoded.Sum,
            ClampedCount = encoded.Clamped,
            _compressed = compressed,
        };
        if (counts.TotalCount != encoded.Count)
        {
            throw new FormatException($"The histogram's counts add up to {counts.TotalCount}, not its count {encoded.Count}.");
        }

        if (!FieldsAgreeWithCounts(histogram, counts))
        {
            throw new FormatException("The histogram's min, max, sum or clamped count disagree with its counts.");
        }

        return histogram;
    }

    private static bool FieldsAgreeWithCounts(LatencyHistogram h, LongHistogram counts)
    {
        if (h.TotalCount == 0)
        {
            return h is { MinMicroseconds: 0, MaxMicroseconds: 0, SumMicroseconds: 0, ClampedCount: 0 };
        }

        var (min, max, total) = (h.MinMicroseconds, h.MaxMicroseconds, h.TotalCount);
        // The iterator reuses one value object, so copy out the numbers rather than the objects.
        var recorded = counts.RecordedValues().Select(v => v.ValueIteratedTo).ToList();
        return min >= 0 && max <= HighestTrackableMicroseconds && min <= max
            && counts.LowestEquivalentValue(min) == counts.LowestEquivalentValue(recorded[0])
            && counts.LowestEquivalentValue(max) == counts.LowestEquivalentValue(recorded[^1])
            && h.SumMicroseconds >= (Int128)min * total
            && h.SumMicroseconds <= (Int128)max * total
            && h.ClampedCount >= 0 && h.ClampedCount <= total;
    }

    private static LongHistogram NewCounts() => new(1, HighestTrackableMicroseconds, SignificantDigits);

    // The counters to write to: expanded from the encoding if compact.
    private LongHistogram Live()
    {
        if (_live is null)
        {
            _live = _compressed is null ? NewCounts() : Decompress(_compressed);
            _compressed = null;
        }

        return _live;
    }

    // The counters to read: the live ones, or a throwaway decode of the encoding.
    private LongHistogram Counts() => _live ?? (_compressed is null ? NewCounts() : Decompress(_compressed));

    private static byte[] Compress(LongHistogram counts)
    {
        var buffer = ByteBuffer.Allocate(counts.GetNeededByteBufferCapacity());
        var length = counts.EncodeIntoCompressedByteBuffer(buffer);

        // ByteBuffer offers its bytes only one at a time.
        var bytes = new byte[length];
        buffer.Position = 0;
        for (var i = 0; i < length; i++)
        {
            bytes[i] = buffer.Get();
        }

        return bytes;
    }

    private static LongHistogram Decompress(byte[] compressed)
    {
        var decoded = HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(compressed), HighestTrackableMicroseconds);
        if (decoded is LongHistogram { LowestTrackableValue: 1, NumberOfSignificantValueDigits: SignificantDigits } same
            && same.HighestTrackableValue >= HighestTrackableMicroseconds)
        {
            return same;
        }

        // Another layout (say, an agent configured differently): re-record its buckets into ours.
        var counts = NewCounts();
        foreach (var value in decoded.RecordedValues())
        {
            counts.RecordValueWithCount(Math.Clamp(value.ValueIteratedTo, 1, HighestTrackableMicroseconds), value.CountAtValueIteratedTo);
        }

        return counts;
    }
}

/// <summary>
/// A latency histogram as the raw run files hold it: exact count, min, max, sum and clamped count in microseconds,
/// and <paramref name="Hdr"/>, the base64 of HdrHistogram's compressed encoding (the form its log files use).
/// </summary>
public sealed record EncodedLatency(long Count, long Min, long Max, long Sum, long Clamped, string Hdr);
