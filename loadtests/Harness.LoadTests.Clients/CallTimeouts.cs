using System.Globalization;

namespace Harness.LoadTests.Clients;

/// <summary>A call's timeout (<c>--timeout</c>) as the clients carry it.</summary>
internal static class CallTimeouts
{
    /// <summary>k6's default per-request timeout, and BasicHttpBinding's send timeout: what a client gets when not told.</summary>
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(60);

    /// <summary>The longest a connection's setup may take when the call's timeout is longer: SocketsHttpHandler's usual 10 s.</summary>
    public static readonly TimeSpan MaxConnectTimeout = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How long a TCP connect may take: 10 s, or the call's timeout when shorter, so that a server that accepts nothing
    /// never holds a call past its timeout. HTTP/2's wait for the server's SETTINGS after it stays at
    /// <see cref="MaxConnectTimeout"/>: each call's own deadline already bounds what a call waits there.
    /// </summary>
    public static TimeSpan ConnectTimeout(TimeSpan callTimeout) => callTimeout < MaxConnectTimeout ? callTimeout : MaxConnectTimeout;

    /// <summary>
    /// The <c>grpc-timeout</c> header's value, as gRPC over HTTP/2 spells it: at most 8 digits and a unit, here whole
    /// milliseconds rounded up (<c>3000m</c>; an hour is <c>3600000m</c>), coarser units when that many would not fit.
    /// </summary>
    public static string GrpcTimeoutHeader(TimeSpan timeout)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        const long MaxValue = 99_999_999;
        var milliseconds = (long)Math.Ceiling(timeout.TotalMilliseconds);
        if (milliseconds <= MaxValue)
        {
            return milliseconds.ToString(CultureInfo.InvariantCulture) + "m";
        }

        var seconds = (long)Math.Ceiling(timeout.TotalSeconds);
        if (seconds <= MaxValue)
        {
            return seconds.ToString(CultureInfo.InvariantCulture) + "S";
        }

        return Math.Min(MaxValue, (long)Math.Ceiling(timeout.TotalHours)).ToString(CultureInfo.InvariantCulture) + "H";
    }
}
