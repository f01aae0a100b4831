using System.CommandLine;
using Harness.LoadTests.Common;

namespace Harness.LoadTests.Telemetry;

/// <summary><c>--metrics-port</c> of <c>run</c> and <c>coordinate</c>: where Prometheus scrapes the process while it runs.</summary>
internal static class MetricsPortOption
{
    public const int Min = 1;
    public const int Max = 65535;

    /// <param name="what">What the page holds, for the option's help.</param>
    public static Option<int?> Create(string what) => new("--metrics-port")
    {
        Description = $"Serve {what} as Prometheus text on this port ({Min}-{Max}, e.g. 9464), on every interface, at /metrics while it runs.",
    };

    /// <exception cref="UsageException">The port is outside 1-65535.</exception>
    public static int? Bind(ParseResult parse, Option<int?> option) => parse.GetValue(option) switch
    {
        null => null,
        var port and (< Min or > Max) => throw new UsageException($"--metrics-port {port}: a port is {Min} to {Max}, e.g. 9464."),
        var port => port,
    };
}
