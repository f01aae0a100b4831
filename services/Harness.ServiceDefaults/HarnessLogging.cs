using System.Globalization;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Serilog;
using Serilog.Events;
using Serilog.Formatting.Json;

namespace Harness.ServiceDefaults;

/// <summary>Serilog for the services: a bootstrap logger for start-up failures, then one built from configuration.</summary>
public static class HarnessLogging
{
    private const string TextTemplate = "[{Timestamp:HH:mm:ss} {Level:u3}] {Service}: {Message:lj}{NewLine}{Exception}";

    /// <summary>A console logger for the moments before configuration is read; assign it to <see cref="Log.Logger"/>.</summary>
    public static Serilog.ILogger CreateBootstrapLogger(string service) =>
        new LoggerConfiguration()
            .MinimumLevel.Information()
            .Enrich.WithProperty("Service", service)
            .WriteTo.Console(outputTemplate: TextTemplate, formatProvider: CultureInfo.InvariantCulture)
            .CreateLogger();

    /// <summary>Replaces the host's logging providers with Serilog, configured from <c>Log</c> and <c>Serilog</c>.</summary>
    /// <exception cref="OptionsValidationException"><c>Log__Format</c> names no known format.</exception>
    public static WebApplicationBuilder AddHarnessLogging(this WebApplicationBuilder builder, string service)
    {
        var options = builder.Configuration.GetSection(LogOptions.SectionName).Get<LogOptions>() ?? new LogOptions();
        var validation = new LogOptionsValidator().Validate(null, options);
        if (validation.Failed)
        {
            throw new OptionsValidationException(LogOptions.SectionName, typeof(LogOptions), validation.Failures);
        }

        // Defaults first so that a Serilog section in configuration can override them.
        var configuration = new LoggerConfiguration()
            .MinimumLevel.Information()
            .MinimumLevel.Override("Microsoft.AspNetCore", LogEventLevel.Warning)
            .MinimumLevel.Override("Microsoft.Hosting.Lifetime", LogEventLevel.Information)
            .MinimumLevel.Override("System.Net.Http.HttpClient", LogEventLevel.Warning)
            .ReadFrom.Configuration(builder.Configuration)
            .Enrich.FromLogContext()
            .Enrich.WithProperty("Service", service);

        configuration = string.Equals(options.Format, "json", StringComparison.OrdinalIgnoreCase)
            ? configuration.WriteTo.Console(new JsonFormatter(renderMessage: true, formatProvider: CultureInfo.InvariantCulture))
            : configuration.WriteTo.Console(outputTemplate: TextTemplate, formatProvider: CultureInfo.InvariantCulture);

        builder.Logging.ClearProviders();
        builder.Logging.AddSerilog(configuration.CreateLogger(), dispose: true);
        return builder;
    }
}
