using HdrHistogram;
using HdrHistogram.Utilities;

namespace Harness.LoadTests.Recording.Tests;

public sealed class LatencyHistogramTests
{
    private const long OneSecond = 1_000_000;

    [Fact]
    public void Values_from_one_microsecond_to_one_hour_are_kept_within_a_tenth_of_a_percent()
    {
        var random = new Random(1);
        var values = new List<long>();
        for (long magnitude = 1; magnitude <= LatencyHistogram.HighestTrackableMicroseconds; magnitude *= 10)
        {
            values.AddRange([magnitude, magnitude - 1, magnitude + 1, (magnitude * 3) + 7]);
        }

        values.AddRange([60 * OneSecond, LatencyHistogram.HighestTrackableMicroseconds]);
        for (var i = 0; i < 2_000; i++)
        {
            values.Add(LogUniform(random, LatencyHistogram.HighestTrackableMicroseconds));
        }

        foreach (var value in values.Where(v => v is > 0 and <= LatencyHistogram.HighestTrackableMicroseconds))
        {
            var histogram = new LatencyHistogram();
            histogram.Record(value);
            var (lowest, count) = histogram.Buckets().Single();
            Assert.Equal(1, count);
            Assert.True(lowest <= value && value - lowest <= value * 0.001, $"{value} µs is kept in a bucket from {lowest} µs");
            if (value < 2048)
            {
                Assert.Equal(value, lowest);
            }
        }
    }

    [Theory]
    [InlineData(1, 1_000)]
    [InlineData(2, 100_000)]
    [InlineData(3, 7)]
    public void Percentiles_match_a_sorted_array_within_bucket_precision(int seed, int count)
    {
        var random = new Random(seed);
        var values = new long[count];
        var histogram = new LatencyHistogram();
        for (var i = 0; i < count; i++)
        {
            values[i] = LogUniform(random, 10 * OneSecond);
            histogram.Record(values[i]);
        }

        Array.Sort(values);
        for (var tenths = 0; tenths <= 1000; tenths++)
        {
            AssertPercentile(tenths / 10.0);
        }

        foreach (var percentile in (double[])[99.99, 99.999, 33.333, 0.001])
        {
            AssertPercentile(percentile);
        }

        void AssertPercentile(double percentile)
        {
            // HdrHistogram's rank is round(p × n) at least 1; allow one rank either side for floating-point rounding,
            // and the bucket's 0.1 % above the value it holds.
            var rank = (int)Math.Clamp(Math.Round(percentile / 100 * count, MidpointRounding.AwayFromZero), 1, count);
            var low = values[Math.Max(0, rank - 2)];
            var high = Math.Min(values[Math.Min(count - 1, rank)] * 1.001 + 1, values[^1]);
            var reported = histogram.ValueAtPercentile(percentile);
            Assert.True(reported >= low && reported <= high, $"p{percentile} of {count}: expected {low}..{high} µs, reported {reported} µs");
        }
    }

    [Fact]
    public void Count_min_max_sum_and_mean_are_exact()
    {
        var random = new Random(4);
        var values = Enumerable.Range(0, 5_000).Select(_ => LogUniform(random, 100 * OneSecond)).ToArray();
        var histogram = new LatencyHistogram();
        foreach (var value in values)
        {
            histogram.Record(TimeSpan.FromMicroseconds(value));
        }

        Assert.Equal(values.Length, histogram.TotalCount);
        Assert.Equal(values.Min(), histogram.MinMicroseconds);
        Assert.Equal(values.Max(), histogram.MaxMicroseconds);
        Assert.Equal(values.Sum(), histogram.SumMicroseconds);
        Assert.Equal((double)values.Sum() / values.Length, histogram.MeanMicroseconds);
        Assert.InRange(histogram.ValueAtPercentile(0), values.Min(), (values.Min() * 1.001) + 1);
        Assert.Equal(values.Max(), histogram.ValueAtPercentile(100));
        Assert.Equal(0, histogram.ClampedCount);
    }

    [Fact]
    public void An_empty_histogram_reports_zeros()
    {
        var histogram = new LatencyHistogram();
        Assert.Equal(0, histogram.TotalCount);
        Assert.Equal(0, histogram.MinMicroseconds);
        Assert.Equal(0, histogram.MaxMicroseconds);
        Assert.Equal(0, histogram.MeanMicroseconds);
        Assert.Equal(0, histogram.ValueAtPercentile(50));
        Assert.Empty(histogram.Buckets());
    }

    [Fact]
    public void Recording_values_as_a_count_equals_recording_them_one_by_one()
    {
        var oneByOne = new LatencyHistogram();
        var counted = new LatencyHistogram();
        for (var i = 0; i < 5; i++)
        {
            oneByOne.Record(12_345);
        }

        counted.RecordValues(12_345, 5);
        Assert.Equal(oneByOne.Encode(), counted.Encode());
    }

    [Fact]
    public void Adding_histograms_equals_recording_both_sets_of_values()
    {
        var random = new Random(5);
        var first = new LatencyHistogram();
        var second = new LatencyHistogram();
        var both = new LatencyHistogram();
        for (var i = 0; i < 20_000; i++)
        {
            var value = LogUniform(random, 2 * LatencyHistogram.HighestTrackableMicroseconds);
            (i % 3 == 0 ? first : second).Record(value);
            both.Record(value);
        }

        var merged = LatencyHistogram.Merge([first, new LatencyHistogram(), second]);
        first.Add(second);
        foreach (var sum in (LatencyHistogram[])[first, merged])
        {
            Assert.Equal(both.Encode(), sum.Encode());
            Assert.Equal(both.ClampedCount, sum.ClampedCount);
            Assert.Equal(both.Buckets(), sum.Buckets());
            for (var percentile = 0.0; percentile <= 100; percentile += 0.5)
            {
                Assert.Equal(both.ValueAtPercentile(percentile), sum.ValueAtPercentile(percentile));
            }
        }
    }

    [Fact]
    public void Adding_into_an_empty_histogram_copies_min_and_max()
    {
        var source = new LatencyHistogram();
        source.Record(500);
        source.Record(900);
        var target = new LatencyHistogram();
        target.Add(source);
        target.Add(new LatencyHistogram());
        Assert.Equal(source.Encode(), target.Encode());
    }

    [Fact]
    public void Adding_a_histogram_to_itself_doubles_its_counts()
    {
        var histogram = new LatencyHistogram();
        var doubled = new LatencyHistogram();
        foreach (var value in (long[])[3, 3_000, 3_000_000])
        {
            histogram.Record(value);
            doubled.RecordValues(value, 2);
        }

        histogram.Add(histogram);
        Assert.Equal(doubled.Encode(), histogram.Encode());
    }

    [Fact]
    public void Values_above_one_hour_are_clamped_and_counted()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(LatencyHistogram.HighestTrackableMicroseconds);
        histogram.Record(LatencyHistogram.HighestTrackableMicroseconds + 1);
        histogram.Record(TimeSpan.FromHours(2));
        histogram.RecordValues(long.MaxValue, 2);

        Assert.Equal(5, histogram.TotalCount);
        Assert.Equal(4, histogram.ClampedCount);
        Assert.Equal(LatencyHistogram.HighestTrackableMicroseconds, histogram.MinMicroseconds);
        Assert.Equal(LatencyHistogram.HighestTrackableMicroseconds, histogram.MaxMicroseconds);
        Assert.Equal(5 * LatencyHistogram.HighestTrackableMicroseconds, histogram.SumMicroseconds);
        Assert.Equal(LatencyHistogram.HighestTrackableMicroseconds, histogram.ValueAtPercentile(100));
        Assert.Single(histogram.Buckets());
    }

    [Fact]
    public void Invalid_arguments_are_rejected()
    {
        var histogram = new LatencyHistogram();
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.Record(-1));
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.Record(TimeSpan.FromTicks(-10)));
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.RecordValues(5, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.ValueAtPercentile(100.1));
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.ValueAtPercentile(-0.1));
        Assert.Throws<ArgumentOutOfRangeException>(() => histogram.ValueAtPercentile(double.NaN));
        Assert.Equal(0, histogram.TotalCount);
    }

    [Fact]
    public void Encoding_round_trips_every_field_and_bucket()
    {
        var random = new Random(6);
        var histogram = new LatencyHistogram();
        for (var i = 0; i < 3_000; i++)
        {
            histogram.Record(LogUniform(random, 2 * LatencyHistogram.HighestTrackableMicroseconds));
        }

        histogram.Record(0);
        var decoded = LatencyHistogram.Decode(histogram.Encode());

        Assert.True(decoded.IsCompact);
        Assert.Equal(histogram.TotalCount, decoded.TotalCount);
        Assert.Equal(histogram.MinMicroseconds, decoded.MinMicroseconds);
        Assert.Equal(histogram.MaxMicroseconds, decoded.MaxMicroseconds);
        Assert.Equal(histogram.SumMicroseconds, decoded.SumMicroseconds);
        Assert.Equal(histogram.ClampedCount, decoded.ClampedCount);
        Assert.True(decoded.ClampedCount > 0);
        Assert.Equal(histogram.Buckets(), decoded.Buckets());
        Assert.Equal(histogram.Encode(), decoded.Encode());
        Assert.Equal(histogram.ValueAtPercentile(99.9), decoded.ValueAtPercentile(99.9));
    }

    [Fact]
    public void An_empty_histogram_round_trips()
    {
        var encoded = new LatencyHistogram().Encode();
        var decoded = LatencyHistogram.Decode(encoded);
        Assert.Equal(0, decoded.TotalCount);
        Assert.Empty(decoded.Buckets());
        Assert.Equal(encoded, decoded.Encode());
    }

    [Fact]
    public void The_hdr_field_is_HdrHistograms_own_compressed_encoding()
    {
        // Arrange
        var histogram = new LatencyHistogram();
        histogram.Record(5);
        histogram.RecordValues(3_000, 2);

        // Act: read it with nothing but the HdrHistogram library, as another tool would.
        var bytes = Convert.FromBase64String(histogram.Encode().Hdr);
        var read = HistogramEncoding.DecodeFromCompressedByteBuffer(ByteBuffer.Allocate(bytes), 0);

        // Assert
        Assert.Equal(3, read.TotalCount);
        Assert.Equal(1, read.GetCountAtValue(5));
        Assert.Equal(2, read.GetCountAtValue(3_000));
        Assert.Equal(LatencyHistogram.SignificantDigits, read.NumberOfSignificantValueDigits);
        Assert.Equal(new EncodedLatency(3, 5, 3_000, 6_005, 0, histogram.Encode().Hdr), histogram.Encode());
    }

    [Fact]
    public void A_compact_histogram_reads_the_same_and_expands_on_the_next_write()
    {
        // Arrange
        var random = new Random(8);
        var histogram = new LatencyHistogram();
        var reference = new LatencyHistogram();
        for (var i = 0; i < 5_000; i++)
        {
            var value = LogUniform(random, 10 * OneSecond);
            histogram.Record(value);
            reference.Record(value);
        }

        // Act
        histogram.Compact();
        var compactReads = (histogram.IsCompact, histogram.ValuesAtPercentiles([50, 90, 99, 100]), histogram.Buckets().ToList());
        histogram.Record(42);
        reference.Record(42);

        // Assert
        Assert.True(compactReads.IsCompact);
        Assert.Equal(reference.ValuesAtPercentiles([50, 90, 99, 100]), compactReads.Item2);
        Assert.Equal(reference.Buckets().Sum(b => b.Count) - 1, compactReads.Item3.Sum(b => b.Count));
        Assert.False(histogram.IsCompact);
        Assert.Equal(reference.Encode(), histogram.Encode());
    }

    [Theory]
    [InlineData("")]
    [InlineData("not base64 at all!")]
    [InlineData("AAAA")]
    [InlineData("SGVsbG8sIHdvcmxkLCB0aGlzIGlzIG5vdCBhIGhpc3RvZ3JhbSBhdCBhbGwsIHJlYWxseS4=")]
    public void Decoding_a_garbage_hdr_field_throws_a_format_exception(string hdr) =>
        Assert.Throws<FormatException>(() => LatencyHistogram.Decode(new EncodedLatency(0, 0, 0, 0, 0, hdr)));

    [Fact]
    public void Decoding_fields_that_disagree_with_the_counts_throws_a_format_exception()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(5);
        histogram.RecordValues(3_000, 2);
        var valid = histogram.Encode();
        Assert.Equal(3, LatencyHistogram.Decode(valid).TotalCount);
        var empty = new LatencyHistogram().Encode();

        EncodedLatency[] damaged =
        [
            valid with { Count = 4 }, // total does not match the counts
            valid with { Count = -1 },
            valid with { Min = 6 }, // minimum outside the lowest bucket
            valid with { Max = 3_004 }, // maximum outside the highest bucket
            valid with { Clamped = 4 }, // more clamped values than values
            valid with { Sum = 14 }, // sum below total × minimum
            valid with { Sum = 9_001 }, // sum above total × maximum
            empty with { Min = 1 }, // empty, yet with a minimum
            valid with { Hdr = valid.Hdr[..^4] }, // cut short
        ];

        foreach (var encoded in damaged)
        {
            Assert.Throws<FormatException>(() => LatencyHistogram.Decode(encoded));
        }
    }

    private static long LogUniform(Random random, long max) => (long)Math.Exp(random.NextDouble() * Math.Log(max));
}
