using System.Collections.Concurrent;
using Grpc.Core;

namespace Harness.LoadTests.Scenarios;

/// <summary>
/// Records what the first failure of each status said, once per series: a count of UNAVAILABLE does not tell a refused
/// connection from a reset stream or a handshake that timed out, and the exception's chain does (docs/s1-scale.md).
/// </summary>
/// <param name="record">Takes the one-line note, e.g. to the run's events.</param>
internal sealed class FirstFailures(Action<string> record)
{
    private const int MaxDepth = 4;
    private readonly ConcurrentDictionary<string, byte> _seen = new(StringComparer.Ordinal);

    /// <summary>Records <paramref name="exception"/> under <paramref name="status"/> unless that status was already recorded.</summary>
    public void Note(string status, Exception exception)
    {
        if (_seen.TryAdd(status, 0))
        {
            record($"first {status}: {Describe(exception)}");
        }
    }

    /// <summary>The exception and its causes on one line, outermost first: <c>RpcException: … ← HttpRequestException: … ← SocketException: …</c>.</summary>
    public static string Describe(Exception exception)
    {
        var parts = new List<string>();
        for (Exception? e = exception; e is not null && parts.Count < MaxDepth; e = Cause(e))
        {
            parts.Add($"{e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}");
        }

        return string.Join(" ← ", parts);
    }

    // gRPC keeps the client-side cause in the status, not as the inner exception.
    private static Exception? Cause(Exception e) => e is RpcException { Status.DebugException: { } debug } ? debug : e.InnerException;
}
