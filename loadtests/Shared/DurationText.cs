using System.Globalization;

namespace Harness.LoadTests.Shared;

/// <summary>
/// A duration as the runner writes an option back and as its messages quote it: in the largest whole unit that states
/// it exactly (<c>250ms</c>, <c>3s</c>, <c>2m</c>, <c>4h</c>). A source file linked into the runner and its call clients
/// (grpc-dotnet's src/Shared model, as <c>services/Shared/Echo.cs</c>), so their messages cannot drift apart.
/// </summary>
internal static class DurationText
{
    public static string Format(TimeSpan value) =>
        value.TotalMilliseconds % 1000 != 0 ? $"{value.TotalMilliseconds.ToString(CultureInfo.InvariantCulture)}ms"
        : value.TotalSeconds % 60 != 0 || value.TotalSeconds < 60 ? $"{value.TotalSeconds.ToString(CultureInfo.InvariantCulture)}s"
        : value.TotalMinutes % 60 != 0 || value.TotalMinutes < 60 ? $"{value.TotalMinutes.ToString(CultureInfo.InvariantCulture)}m"
        : $"{value.TotalHours.ToString(CultureInfo.InvariantCulture)}h";
}
