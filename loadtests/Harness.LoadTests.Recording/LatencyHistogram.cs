using System.Buffers.Binary;
using System.Numerics;

namespace Harness.LoadTests.Recording;

/// <summary>
/// A latency histogram in microseconds with HdrHistogram's log-linear buckets: every value from 1 µs to
/// <see cref="HighestTrackableMicroseconds"/> is kept to three significant digits (0.1 %), so percentiles are
/// accurate and two histograms merge exactly by adding their counts. Counts are stored sparsely, because a
/// one-second histogram of a run holds only a few hundred distinct buckets. Not thread-safe.
/// </summary>
/// <remarks>HdrHistogram's package is absent from the package source (docs/dependencies.md); the bucket layout follows its published design.</remarks>
public sealed class LatencyHistogram
{
    /// <summary>One hour; slower values are clamped to it and counted in <see cref="ClampedCount"/>.</summary>
    public const long HighestTrackableMicroseconds = 3_600_000_000;

    private const int SubBucketHalfCountMagnitude = 10; // 3 significant digits: 2 × 10^3 → 2048 sub-buckets
    private const int SubBucketCount = 1 << (SubBucketHalfCountMagnitude + 1);
    private const int SubBucketHalfCount = SubBucketCount / 2;
    private const long SubBucketMask = SubBucketCount - 1;
    private const int LeadingZeroCountBase = 64 - SubBucketHalfCountMagnitude - 1;
    private const byte EncodingVersion = 1;

    private static readonly int HighestIndex = CountsIndexFor(HighestTrackableMicroseconds);

    private readonly SortedDictionary<int, long> _counts = [];

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

    /// <summary>How many distinct buckets hold a count (the size of the encoding).</summary>
    public int BucketsUsed => _counts.Count;

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

        var index = CountsIndexFor(microseconds);
        _counts[index] = _counts.GetValueOrDefault(index) + count;
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

        // A copy when adding to itself: the loop below would otherwise change the dictionary it enumerates.
        var counts = ReferenceEquals(other, this) ? new SortedDictionary<int, long>(_counts) : other._counts;
        foreach (var (index, count) in counts)
        {
            _counts[index] = _counts.GetValueOrDefault(index) + count;
        }

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
    /// The value at or below which <paramref name="percentile"/> % of the values fall, as HdrHistogram reports it:
    /// the highest value equivalent to the bucket that holds that rank (never above the exact maximum).
    /// </summary>
    public long ValueAtPercentile(double percentile)
    {
        if (double.IsNaN(percentile))
        {
            throw new ArgumentOutOfRangeException(nameof(percentile), percentile, "The percentile is not a number.");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(percentile, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(percentile, 100);
        if (TotalCount == 0)
        {
            return 0;
        }

        // Nearest rank in decimal: in double, 11.9 / 100 × 1000 is 119.00000000000001, one rank too far.
        var rank = Math.Max(1, (long)Math.Ceiling((decimal)percentile * TotalCount / 100));
        long seen = 0;
        foreach (var (index, count) in _counts)
        {
            seen += count;
            if (seen >= rank)
            {
                return Math.Min(HighestEquivalentValue(ValueFromIndex(index)), MaxMicroseconds);
            }
        }

        return MaxMicroseconds;
    }

    /// <summary>The buckets in value order: the lowest value each bucket stands for, and its count.</summary>
    public IEnumerable<(long LowestMicroseconds, long Count)> Buckets() =>
        _counts.Select(pair => (ValueFromIndex(pair.Key), pair.Value));

    /// <summary>
    /// A compact, lossless text form (base64 of little-endian header fields and varint-coded bucket deltas),
    /// the <c>latency</c> field of the raw run files; <see cref="Decode"/> reads it back.
    /// </summary>
    public string Encode()
    {
        var buffer = new List<byte>(40 + (_counts.Count * 4)) { EncodingVersion };
        Span<byte> header = stackalloc byte[8];
        foreach (var field in (ReadOnlySpan<long>)[TotalCount, MinMicroseconds, MaxMicroseconds, SumMicroseconds, ClampedCount])
        {
            BinaryPrimitives.WriteInt64LittleEndian(header, field);
            buffer.AddRange(header);
        }

        WriteVarint(buffer, (ulong)_counts.Count);
        var previous = 0;
        foreach (var (index, count) in _counts)
        {
            WriteVarint(buffer, (ulong)(index - previous));
            WriteVarint(buffer, (ulong)count);
            previous = index;
        }

        return Convert.ToBase64String(buffer.ToArray());
    }

    /// <summary>Reads an <see cref="Encode"/> string back, checking that its header and buckets agree.</summary>
    /// <exception cref="FormatException">The text is not a consistent encoding of this version.</exception>
    public static LatencyHistogram Decode(string encoded)
    {
        ArgumentNullException.ThrowIfNull(encoded);
        var bytes = Convert.FromBase64String(encoded);
        if (bytes.Length < 42 || bytes[0] != EncodingVersion)
        {
            throw new FormatException($"Not a latency histogram of encoding version {EncodingVersion}.");
        }

        var histogram = new LatencyHistogram
        {
            TotalCount = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(1)),
            MinMicroseconds = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(9)),
            MaxMicroseconds = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(17)),
            SumMicroseconds = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(25)),
            ClampedCount = BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(33)),
        };
        var position = 41;
        var buckets = ReadVarint(bytes, ref position);
        var index = 0;
        long total = 0;
        for (ulong i = 0; i < buckets; i++)
        {
            // Indexes strictly increase; only the first bucket may sit at index 0 (the value 0).
            var delta = ReadVarint(bytes, ref position);
            if ((i > 0 && delta == 0) || delta > (ulong)(HighestIndex - index))
            {
                throw new FormatException("The histogram's bucket indexes are out of order or past its highest value.");
            }

            index += (int)delta;
            var count = ReadVarint(bytes, ref position);
            if (count == 0 || count > (ulong)(long.MaxValue - total))
            {
                throw new FormatException("The histogram holds a bucket count of zero or an overflowing total.");
            }

            histogram._counts[index] = (long)count;
            total += (long)count;
        }

        if (position != bytes.Length)
        {
            throw new FormatException("The histogram encoding has bytes after its last bucket.");
        }

        if (total != histogram.TotalCount)
        {
            throw new FormatException("The histogram's bucket counts do not add up to its total.");
        }

        if (!HeaderAgreesWithBuckets(histogram))
        {
            throw new FormatException("The histogram's minimum, maximum, sum or clamped count disagree with its buckets.");
        }

        return histogram;
    }

    private static bool HeaderAgreesWithBuckets(LatencyHistogram histogram)
    {
        if (histogram.TotalCount == 0)
        {
            return histogram is { MinMicroseconds: 0, MaxMicroseconds: 0, SumMicroseconds: 0, ClampedCount: 0 };
        }

        var (min, max, total) = (histogram.MinMicroseconds, histogram.MaxMicroseconds, histogram.TotalCount);
        return min >= 0 && max <= HighestTrackableMicroseconds && min <= max
            && CountsIndexFor(min) == histogram._counts.Keys.First()
            && CountsIndexFor(max) == histogram._counts.Keys.Last()
            && histogram.SumMicroseconds >= (Int128)min * total
            && histogram.SumMicroseconds <= (Int128)max * total
            && histogram.ClampedCount >= 0 && histogram.ClampedCount <= total;
    }

    internal static int CountsIndexFor(long value)
    {
        var bucketIndex = LeadingZeroCountBase - BitOperations.LeadingZeroCount((ulong)(value | SubBucketMask));
        var subBucketIndex = (int)(value >> bucketIndex);
        return ((bucketIndex + 1) << SubBucketHalfCountMagnitude) + (subBucketIndex - SubBucketHalfCount);
    }

    internal static long ValueFromIndex(int index)
    {
        var bucketIndex = (index >> SubBucketHalfCountMagnitude) - 1;
        var subBucketIndex = (index & (SubBucketHalfCount - 1)) + SubBucketHalfCount;
        if (bucketIndex < 0)
        {
            subBucketIndex -= SubBucketHalfCount;
            bucketIndex = 0;
        }

        return (long)subBucketIndex << bucketIndex;
    }

    internal static long HighestEquivalentValue(long value)
    {
        var bucketIndex = LeadingZeroCountBase - BitOperations.LeadingZeroCount((ulong)(value | SubBucketMask));
        var subBucketIndex = (int)(value >> bucketIndex);
        var adjustedBucket = subBucketIndex >= SubBucketCount ? bucketIndex + 1 : bucketIndex;
        var lowest = (long)subBucketIndex << bucketIndex;
        return lowest + (1L << adjustedBucket) - 1;
    }

    private static void WriteVarint(List<byte> buffer, ulong value)
    {
        while (value >= 0x80)
        {
            buffer.Add((byte)(value | 0x80));
            value >>= 7;
        }

        buffer.Add((byte)value);
    }

    private static ulong ReadVarint(byte[] bytes, ref int position)
    {
        ulong value = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            if (position >= bytes.Length)
            {
                throw new FormatException("The histogram encoding ends inside a number.");
            }

            var b = bytes[position++];
            if (shift == 63 && b > 1)
            {
                break;
            }

            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }

        throw new FormatException("The histogram encoding holds a number longer than 64 bits.");
    }
}
