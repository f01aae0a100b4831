using System.Globalization;

namespace Harness.Metrics;

/// <summary>
/// The gRPC response trailer in which a service that adopted the scheduling modes (Harness.Scheduling.AspNetCore's
/// interceptor, our gRPC service included) reports its own execution time of a unary call, and the load runner reads
/// it for a reply that carries no time of its own (a <c>--call</c>). Milliseconds, invariant culture: <c>12.345</c>.
/// </summary>
public static class ServerTimeTrailer
{
    /// <summary>The trailer's name (lower case, as HTTP/2 sends every header name).</summary>
    public const string Name = "harness-server-time-ms";

    public static string Format(double milliseconds) => milliseconds.ToString("0.###", CultureInfo.InvariantCulture);

    /// <summary>The trailer's milliseconds, or null when absent or not a number.</summary>
    public static double? Parse(string? value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var ms) ? ms : null;

    /// <summary><see cref="Parse(string?)"/> of a value still in its UTF-8 bytes (an HTTP/1.1 header read off the wire).</summary>
    public static double? Parse(ReadOnlySpan<byte> utf8) =>
        double.TryParse(utf8, NumberStyles.Float, CultureInfo.InvariantCulture, out var ms) ? ms : null;
}
