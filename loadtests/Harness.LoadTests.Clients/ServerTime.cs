using Grpc.Core;
using Harness.Metrics;

namespace Harness.LoadTests.Clients;

/// <summary>The server's own execution time, as a reply reports it (<c>ElapsedMs</c>), or its gRPC trailer.</summary>
public static class ServerTime
{
    /// <summary>
    /// The reply's figure as a time, or null when it is not one (negative, NaN, infinite, beyond a day): an external
    /// target's bad number must not stop the run, and the request's own latency is measured regardless.
    /// </summary>
    public static TimeSpan? FromReply(double elapsedMs) =>
        double.IsFinite(elapsedMs) && elapsedMs is >= 0 and <= 86_400_000 ? TimeSpan.FromMilliseconds(elapsedMs) : null;

    /// <summary>
    /// The <see cref="ServerTimeTrailer.Name"/> trailer's figure (a reply that carries no time of its own: any
    /// <c>--call</c> of a gRPC target), as <see cref="FromReply"/> accepts it; null when absent or not a time.
    /// </summary>
    public static TimeSpan? FromTrailers(Metadata trailers) => FromHeader(trailers.GetValue(ServerTimeTrailer.Name));

    /// <summary>The same figure from an HTTP header's value (a SOAP reply's <c>harness-server-time-ms</c>); null when absent or not a time.</summary>
    public static TimeSpan? FromHeader(string? value) => ServerTimeTrailer.Parse(value) is { } ms ? FromReply(ms) : null;

    /// <inheritdoc cref="FromHeader(string?)"/>
    public static TimeSpan? FromHeader(ReadOnlySpan<byte> utf8) => ServerTimeTrailer.Parse(utf8) is { } ms ? FromReply(ms) : null;
}
