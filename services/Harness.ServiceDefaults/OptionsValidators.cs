using System.Net;
using Harness.Agreements;
using Harness.Scheduling;
using Microsoft.Extensions.Options;

namespace Harness.ServiceDefaults;

// Each failure names the environment variable to change, since that is how containers configure the services.

internal sealed class SchedulingOptionsValidator : IValidateOptions<SchedulingOptions>
{
    /// <summary>The failure for a mode name that binding refused (the mode itself is an enum by then).</summary>
    public static string UnknownMode(string value) =>
        $"{SchedulingModes.ModeVariable} '{value}' is not a scheduling mode; valid values: {string.Join(", ", SchedulingOptions.ModeNames.Keys)}.";

    public ValidateOptionsResult Validate(string? name, SchedulingOptions options)
    {
        var failures = new List<string>();
        if (options.IocpConcurrency < 0)
        {
            failures.Add($"Scheduling__IocpConcurrency must be 0 (= processor count) or more; got {options.IocpConcurrency}.");
        }

        if (options.IocpMaxThreads < options.EffectiveIocpConcurrency)
        {
            failures.Add($"Scheduling__IocpMaxThreads must be at least the concurrency ({options.EffectiveIocpConcurrency}); got {options.IocpMaxThreads}.");
        }

        if (options.CustomPoolMinThreads < 0)
        {
            failures.Add($"Scheduling__CustomPoolMinThreads must be 0 or more; got {options.CustomPoolMinThreads}.");
        }

        if (options.CustomPoolMaxThreads < Math.Max(1, options.CustomPoolMinThreads) || options.CustomPoolMaxThreads > 32_767)
        {
            failures.Add($"Scheduling__CustomPoolMaxThreads must be between max(1, CustomPoolMinThreads) and 32767; got {options.CustomPoolMaxThreads}.");
        }

        if (options.IdleTimeout <= TimeSpan.Zero)
        {
            failures.Add($"Scheduling__IdleTimeout must be positive (e.g. 00:00:30); got {options.IdleTimeout}.");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}

internal sealed class ListenOptionsValidator : IValidateOptions<ListenOptions>
{
    public ValidateOptionsResult Validate(string? name, ListenOptions options)
    {
        var failures = new List<string>();
        if (!IPAddress.TryParse(options.Address, out _))
        {
            failures.Add($"Listen__Address must be an IP address such as 127.0.0.1 or 0.0.0.0; got '{options.Address}'.");
        }

        if (options.Port is < 0 or > 65_535)
        {
            failures.Add($"Listen__Port must be between 0 and 65535; got {options.Port}.");
        }

        if (options.AdminPort is < 0 or > 65_535 || (options.AdminPort is { } admin && admin != 0 && admin == options.Port))
        {
            failures.Add($"Listen__AdminPort must be between 0 and 65535 and differ from Listen__Port; got {options.AdminPort}.");
        }

        if (options.MetricsPort is < 0 or > 65_535
            || (options.MetricsPort is { } metrics && metrics != 0 && (metrics == options.Port || metrics == options.AdminPort)))
        {
            failures.Add($"Listen__MetricsPort must be between 0 and 65535 and differ from Listen__Port and Listen__AdminPort; got {options.MetricsPort}.");
        }

        if (options.UnixSocket is { } socket)
        {
            failures.AddRange(UnixSocketPath.Check(socket));
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}

internal sealed class Http2OptionsValidator : IValidateOptions<Http2Options>
{
    public ValidateOptionsResult Validate(string? name, Http2Options options) =>
        options.MaxStreamsPerConnection >= 1
            ? ValidateOptionsResult.Success
            : ValidateOptionsResult.Fail($"Http2__MaxStreamsPerConnection must be 1 or more (Kestrel's default is {Http2Options.KestrelDefaultMaxStreamsPerConnection}); got {options.MaxStreamsPerConnection}.");
}

internal sealed class LogOptionsValidator : IValidateOptions<LogOptions>
{
    public ValidateOptionsResult Validate(string? name, LogOptions options) =>
        LogOptions.Formats.Contains(options.Format, StringComparer.OrdinalIgnoreCase)
            ? ValidateOptionsResult.Success
            : ValidateOptionsResult.Fail($"Log__Format '{options.Format}' is not a log format; valid values: {string.Join(", ", LogOptions.Formats)}.");
}
