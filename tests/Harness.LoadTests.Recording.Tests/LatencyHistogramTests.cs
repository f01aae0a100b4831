using System.Buffers.Binary;

namespace Harness.LoadTests.Recording.Tests;

public sealed class LatencyHistogramTests
{
    private const long OneSecond = 1_000_000;
    private static readonly int HighestIndex = LatencyHistogram.CountsIndexFor(LatencyHistogram.HighestTrackableMicroseconds);

    [Fact]
    public void Every_bucket_index_maps_to_a_contiguous_value_range_up_to_one_hour()
    {
        for (var index = 0; index <= HighestIndex; index++)
        {
            var lowest = LatencyHistogram.ValueFromIndex(index);
            var highest = LatencyHistogram.HighestEquivalentValue(lowest);
            Assert.Equal(index, LatencyHistogram.CountsIndexFor(lowest));
            Assert.Equal(index, LatencyHistogram.CountsIndexFor(highest));
            // The next bucket starts right after this one ends: no value falls between two buckets.
            Assert.Equal(highest + 1, LatencyHistogram.ValueFromIndex(index + 1));
        }
    }

    [Theory]
    [InlineData(0L, 0, 0L)]
    [InlineData(1L, 1, 1L)]
    [InlineData(2047L, 2047, 2047L)]
    [InlineData(2048L, 2048, 2049L)]
    [InlineData(2049L, 2048, 2049L)]
    [InlineData(4096L, 3072, 4099L)]
    [InlineData(1_000_000L, 11_169, 1_000_447L)]
    public void Layout_matches_hdr_histogram_with_2048_sub_buckets(long value, int index, long highestEquivalent)
    {
        Assert.Equal(index, LatencyHistogram.CountsIndexFor(value));
        Assert.Equal(highestEquivalent, LatencyHistogram.HighestEquivalentValue(value));
    }

    [Fact]
    public void Values_from_one_microsecond_to_one_hour_round_trip_within_a_tenth_of_a_percent()
    {
        var random = new Random(1);
        var values = new List<long>();
        for (long magnitude = 1; magnitude <= LatencyHistogram.HighestTrackableMicroseconds; magnitude *= 10)
        {
            values.AddRange([magnitude, magnitude - 1, magnitude + 1, (magnitude * 3) + 7]);
        }

        values.AddRange([60 * OneSecond, LatencyHistogram.HighestTrackableMicroseconds]);
        for (var i = 0; i < 10_000; i++)
        {
            values.Add(LogUniform(random, LatencyHistogram.HighestTrackableMicroseconds));
        }

        foreach (var value in values.Where(v => v <= LatencyHistogram.HighestTrackableMicroseconds))
        {
            var index = LatencyHistogram.CountsIndexFor(value);
            var lowest = LatencyHistogram.ValueFromIndex(index);
            var highest = LatencyHistogram.HighestEquivalentValue(value);
            Assert.InRange(value, lowest, highest);
            Assert.Equal(lowest, LatencyHistogram.ValueFromIndex(LatencyHistogram.CountsIndexFor(highest)));
            Assert.True(highest - value <= value * 0.001, $"{value} µs is kept as up to {highest} µs");
            if (value < 2048)
            {
                Assert.Equal(value, highest);
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
            // Nearest rank, computed in decimal so that e.g. 99.9 % of 1000 is rank 999, not 1000.
            var rank = Math.Max(1, (long)Math.Ceiling((decimal)percentile * count / 100));
            var exact = values[rank - 1];
            var reported = histogram.ValueAtPercentile(percentile);
            Assert.True(
                reported >= exact && reported <= Math.Min(LatencyHistogram.HighestEquivalentValue(exact), values[^1]),
                $"p{percentile} of {count}: exact {exact} µs, reported {reported} µs");
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
        Assert.Equal(values.Min(), histogram.ValueAtPercentile(0));
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
        Assert.Equal(1, histogram.BucketsUsed);
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
        Assert.Equal(0, decoded.BucketsUsed);
        Assert.Equal(encoded, decoded.Encode());
        // Version byte, five int64 fields and a zero bucket count.
        Assert.Equal(42, Convert.FromBase64String(encoded).Length);
    }

    [Fact]
    public void The_encoding_follows_the_documented_byte_layout()
    {
        var histogram = new LatencyHistogram();
        histogram.Record(5);
        histogram.RecordValues(3_000, 2);
        var bytes = Convert.FromBase64String(histogram.Encode());

        Assert.Equal(1, bytes[0]);
        Assert.Equal(3, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(1)));
        Assert.Equal(5, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(9)));
        Assert.Equal(3_000, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(17)));
        Assert.Equal(6_005, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(25)));
        Assert.Equal(0, BinaryPrimitives.ReadInt64LittleEndian(bytes.AsSpan(33)));
        // Two buckets: index 5 (delta 5, count 1), then index 2524 (3000 → bucket 1, sub-bucket 1500; delta 2519 = 0xD7 0x13, count 2).
        Assert.Equal(2524, LatencyHistogram.CountsIndexFor(3_000));
        Assert.Equal((byte[])[2, 5, 1, 0xD7, 0x13, 2], bytes[41..]);
    }

    [Theory]
    [InlineData("")]
    [InlineData("not base64 at all!")]
    [InlineData("AAAA")]
    [InlineData("SGVsbG8sIHdvcmxkLCB0aGlzIGlzIG5vdCBhIGhpc3RvZ3JhbSBhdCBhbGwsIHJlYWxseS4=")]
    public void Decoding_garbage_text_throws_a_format_exception(string text) =>
        Assert.Throws<FormatException>(() => LatencyHistogram.Decode(text));

    [Fact]
    public void Decoding_damaged_encodings_throws_a_format_exception()
    {
        byte[] buckets = [2, 5, 1, 0xD7, 0x13, 2];
        var valid = Encoding(3, 5, 3_000, 6_005, 0, buckets);
        Assert.Equal(3, LatencyHistogram.Decode(Convert.ToBase64String(valid)).TotalCount);

        byte[][] damaged =
        [
            [2, .. valid[1..]], // unknown version
            valid[..^1], // ends inside the buckets
            [.. valid, 0], // trailing byte
            Encoding(4, 5, 3_000, 6_005, 0, buckets), // total does not match the buckets
            Encoding(-1, 5, 3_000, 6_005, 0, buckets),
            Encoding(3, 6, 3_000, 6_005, 0, buckets), // minimum outside the lowest bucket
            Encoding(3, 5, 3_002, 6_005, 0, buckets), // maximum outside the highest bucket
            Encoding(3, 5, 3_000, 6_005, 4, buckets), // more clamped values than values
            Encoding(3, 5, 3_000, 14, 0, buckets), // sum below total × minimum
            Encoding(3, 5, 3_000, 9_001, 0, buckets), // sum above total × maximum
            Encoding(3, 5, 5, 15, 0, [2, 5, 1, 0, 2]), // second bucket repeats the first index
            Encoding(1, 5, 5, 5, 0, [2, 5, 1, 1, 0]), // bucket with a zero count
            Encoding(3, 5, 5, 15, 0, [1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 3]), // index delta above int.MaxValue
            Encoding(3, 5, 5, 15, 0, [1, .. Varint(HighestIndex + 1), 3]), // bucket past one hour
            Encoding(3, 5, 5, 15, 0, [1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 3]), // varint over 64 bits
            Encoding(3, 5, 5, 15, 0, [1, 5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]), // count over long.MaxValue
            Encoding(0, 1, 0, 0, 0, [0]), // empty, yet with a minimum
        ];

        foreach (var bytes in damaged)
        {
            Assert.Throws<FormatException>(() => LatencyHistogram.Decode(Convert.ToBase64String(bytes)));
        }

        static byte[] Encoding(long total, long min, long max, long sum, long clamped, byte[] bucketBytes)
        {
            var bytes = new byte[41 + bucketBytes.Length];
            bytes[0] = 1;
            long[] fields = [total, min, max, sum, clamped];
            for (var i = 0; i < fields.Length; i++)
            {
                BinaryPrimitives.WriteInt64LittleEndian(bytes.AsSpan(1 + (8 * i)), fields[i]);
            }

            bucketBytes.CopyTo(bytes, 41);
            return bytes;
        }

        static byte[] Varint(int value)
        {
            var bytes = new List<byte>();
            for (; value >= 0x80; value >>= 7)
            {
                bytes.Add((byte)(value | 0x80));
            }

            bytes.Add((byte)value);
            return [.. bytes];
        }
    }

    private static long LogUniform(Random random, long max) => (long)Math.Exp(random.NextDouble() * Math.Log(max));
}
