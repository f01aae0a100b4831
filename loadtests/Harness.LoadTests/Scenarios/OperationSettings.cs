using System.Globalization;

namespace Harness.LoadTests.Scenarios;

/// <summary>The arguments every request of a run sends.</summary>
/// <param name="Iterations">Compute: loop count per call.</param>
/// <param name="Fanout">CallThirdParty: calls per request.</param>
/// <param name="DelayMs">CallThirdParty: the stub's delay per call.</param>
/// <param name="Style">CallThirdParty: blocking, async, thread-sleep, task-wait or task-delay.</param>
/// <param name="Parallelism">CallThirdParty: most calls in flight per request; 0 = all.</param>
internal sealed record OperationSettings(int Iterations, int Fanout, int DelayMs, string Style, int Parallelism)
{
    public static OperationSettings Default { get; } = new(Iterations: 1_000_000, Fanout: 4, DelayMs: 1000, Style: "blocking", Parallelism: 0);

    public IReadOnlyDictionary<string, string> For(string operation) => operation switch
    {
        Operations.Compute => new Dictionary<string, string> { ["iterations"] = Invariant(Iterations) },
        Operations.CallThirdParty => new Dictionary<string, string>
        {
            ["fanout"] = Invariant(Fanout),
            ["delayMs"] = Invariant(DelayMs),
            ["style"] = Style,
            ["parallelism"] = Invariant(Parallelism),
        },
        _ => throw new ArgumentOutOfRangeException(nameof(operation), operation, null),
    };

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}

/// <summary>The operation names used on the command line, in series ids and in reports.</summary>
internal static class Operations
{
    public const string Compute = "compute";
    public const string CallThirdParty = "call-third-party";

    public static IReadOnlyList<string> All { get; } = [Compute, CallThirdParty];
}
