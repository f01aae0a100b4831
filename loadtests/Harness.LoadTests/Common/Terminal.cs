namespace Harness.LoadTests.Common;

/// <summary>Who reads the output: a person at a terminal (colours, a progress line rewritten in place) or a log.</summary>
internal static class Terminal
{
    /// <summary>A terminal that is not a CI job's: the progress line may be rewritten in place.</summary>
    public static bool Interactive => IsInteractive(Console.IsOutputRedirected, Environment.GetEnvironmentVariable("CI"));

    /// <summary>Colours only for a person at a terminal who has not set NO_COLOR (no-color.org).</summary>
    public static bool Colour => UseColour(Console.IsOutputRedirected, Environment.GetEnvironmentVariable("NO_COLOR"));

    public static bool IsInteractive(bool outputRedirected, string? ci) => !outputRedirected && !IsSet(ci);

    public static bool UseColour(bool outputRedirected, string? noColor) => !outputRedirected && string.IsNullOrEmpty(noColor);

    // CI=true on the common CI services; CI=false or CI=0 is someone turning it off.
    private static bool IsSet(string? value) =>
        !string.IsNullOrEmpty(value) && !value.Equals("false", StringComparison.OrdinalIgnoreCase) && value != "0";
}
