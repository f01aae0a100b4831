using System.Globalization;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Serilog;
using Serilog.Events;
using Serilog.Extensions.Hosting;
using Serilog.Formatting.Compact;

namespace Harness.ServiceDefaults;

/// <summary>Serilog for the services: a bootstrap logger for start-up failures, then one built from configuration.</summary>
public static class HarnessLogging
{
    private const string TextTemplate = "[{Timestamp:HH:mm:ss} {Level:u3}] {Service}: {Message:lj}{NewLine}{Exception}";

    /// <summary>
    /// A console logger for the moments before configuration is read; assign it to <see cref="Log.Logger"/>.
    /// <see cref="AddHarnessLogging"/> reloads it in place with the configured settings once the host is built.
    /// </summary>
    public static ReloadableLogger CreateBootstrapLogger(string service) =>
        new LoggerConfiguration()
            .MinimumLevel.Information()
            .Enrich.WithProperty("Service", service)
            .WriteTo.Console(outputTemplate: TextTemplate, formatProvider: CultureInfo.InvariantCulture)
            .CreateBootstrapLogger();

    /// <summary>
    /// Routes the host's logging through Serilog, configured from the validated <c>Log</c> section and Serilog's
    /// own <c>Serilog</c> section. A bad <c>Log__Format</c> surfaces as an <see cref="OptionsValidationException"/>
    /// while the app is built.
    /// </summary>
    public static WebApplicationBuilder AddHarnessLogging(this WebApplicationBuilder builder, string service)
    {
        builder.Services.AddSingleton<IValidateOptions<LogOptions>, LogOptionsValidator>();
        builder.Services.AddOptions<LogOptions>().BindConfiguration(LogOptions.SectionName).ValidateOnStart();

        builder.Services.AddSerilog((services, configuration) =>
        {
            var options = services.GetRequiredService<IOptions<LogOptions>>().Value;

            // Defaults first so that a Serilog section in configuration can override them.
            configuration
                .MinimumLevel.Information()
                .MinimumLevel.Override("Microsoft.AspNetCore", LogEventLevel.Warning)
                // Off, not just quiet: while any level of it is enabled, ASP.NET Core starts an Activity and a log
                // scope for every request (its ids, strings and async-local map: about 500 bytes for each call in
                // flight, docs/s1-scale.md), only to log request start and end at Information. Its errors are
                // start-up ones, which the bootstrap logger reports.
                .MinimumLevel.Override("Microsoft.AspNetCore.Hosting.Diagnostics", LevelAlias.Off)
                .MinimumLevel.Override("Microsoft.Hosting.Lifetime", LogEventLevel.Information)
                .MinimumLevel.Override("System.Net.Http.HttpClient", LogEventLevel.Warning)
                .ReadFrom.Configuration(builder.Configuration)
                .Enrich.FromLogContext()
                .Enrich.WithProperty("Service", service);

            if (string.Equals(options.Format, "json", StringComparison.OrdinalIgnoreCase))
            {
                // One compact JSON object per event, with the rendered message for collectors that cannot render templates.
                configuration.WriteTo.Console(new RenderedCompactJsonFormatter());
            }
            else
            {
                configuration.WriteTo.Console(outputTemplate: TextTemplate, formatProvider: CultureInfo.InvariantCulture);
            }
        });
        return builder;
    }
}
