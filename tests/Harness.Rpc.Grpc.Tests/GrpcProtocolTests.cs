using Harness.Rpc.Grpc.Internal;

namespace Harness.Rpc.Grpc.Tests;

public sealed class GrpcProtocolTests
{
    [Theory]
    [InlineData("1H", 36_000_000_000L)]
    [InlineData("2M", 1_200_000_000L)]
    [InlineData("3S", 30_000_000L)]
    [InlineData("250m", 2_500_000L)]
    [InlineData("7u", 70L)]
    [InlineData("1000n", 10L)]
    [InlineData("99999999S", 999_999_990_000_000L)]
    public void TryParseTimeout_ReadsEveryUnit(string value, long ticks)
    {
        Assert.True(GrpcProtocol.TryParseTimeout(value, out var timeout));
        Assert.Equal(ticks, timeout.Ticks);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("S")]
    [InlineData("10")]
    [InlineData("10s")]
    [InlineData("-1S")]
    [InlineData("123456789S")]
    public void TryParseTimeout_RejectsMalformedValues(string? value)
    {
        Assert.False(GrpcProtocol.TryParseTimeout(value, out _));
    }

    [Theory]
    [InlineData(0L, "1m")]
    [InlineData(1L, "1m")]
    [InlineData(2_500_000L, "250m")]
    [InlineData(2_500_001L, "251m")]
    [InlineData(1_000_000_000_000L, "100000S")]
    [InlineData(long.MaxValue, "99999999H")]
    public void FormatTimeout_RoundsUpInTheFinestUnitThatFits(long ticks, string expected)
    {
        Assert.Equal(expected, GrpcProtocol.FormatTimeout(TimeSpan.FromTicks(ticks)));
    }

    [Theory]
    [InlineData("plain text", "plain text")]
    [InlineData("100%", "100%25")]
    [InlineData("ü✓", "%C3%BC%E2%9C%93")]
    [InlineData("line\r\nbreak", "line%0D%0Abreak")]
    public void PercentEncode_EscapesPercentAndNonPrintableBytes(string value, string encoded)
    {
        Assert.Equal(encoded, GrpcProtocol.PercentEncode(value));
        Assert.Equal(value, GrpcProtocol.PercentDecode(encoded));
    }

    [Theory]
    [InlineData("50%", "50%")]
    [InlineData("%zz", "%zz")]
    [InlineData("%4", "%4")]
    public void PercentDecode_KeepsBrokenEscapes(string value, string decoded)
    {
        Assert.Equal(decoded, GrpcProtocol.PercentDecode(value));
    }

    [Theory]
    [InlineData("application/grpc", true)]
    [InlineData("APPLICATION/GRPC", true)]
    [InlineData("application/grpc+proto", true)]
    [InlineData("application/grpc;charset=utf-8", true)]
    [InlineData("application/grpc-web", false)]
    [InlineData("application/grpcx", false)]
    [InlineData("application/json", false)]
    [InlineData(null, false)]
    public void IsGrpcContentType_MatchesGrpcAndItsVariants(string? contentType, bool expected)
    {
        Assert.Equal(expected, GrpcProtocol.IsGrpcContentType(contentType));
    }
}
