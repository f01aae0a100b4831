using System.Text;
using Harness.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace Harness.Scheduling.AspNetCore.BadRequests;

/// <summary>
/// First in the pipeline, before routing: every gRPC request reads its body through <see cref="CheckedRequestBody"/>,
/// and a request whose content type or <c>grpc-encoding</c> is too long to repeat gets that value cut in the
/// <c>grpc-message</c> Grpc.AspNetCore answers it with.
/// </summary>
/// <remarks>
/// Grpc.AspNetCore repeats those two headers whole: a content type that is not gRPC's in its 415 answer ("Content-Type
/// '…' is not supported."), an encoding it lacks in <c>UNIMPLEMENTED</c>. Kestrel lets a request's headers reach
/// 32 KiB, and grpc-message percent-encodes a <c>%</c> as three characters, so a 22,000-character content type made a
/// 66 KB response header: past the 64 KiB a client accepts, which then dropped the connection and every call on it.
/// Only such requests pay for the check, a callback before their response starts.
/// </remarks>
internal sealed class GrpcRequestChecks : IStartupFilter
{
    private const string MessageHeader = "grpc-message";
    private const string EncodingHeader = "grpc-encoding";

    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use(static (context, nextMiddleware) =>
        {
            HttpRequest request = context.Request;
            if (CheckedRequestBody.IsGrpc(request))
            {
                context.Features.Set<IRequestBodyPipeFeature>(new CheckedRequestBody(request.BodyReader));
            }

            if (request.ContentType?.Length > Echo.MaxChars || request.Headers[EncodingHeader].ToString().Length > Echo.MaxChars)
            {
                context.Response.OnStarting(BoundEchoes, context);
            }

            return nextMiddleware(context);
        });
        next(app);
    };

    private static Task BoundEchoes(object state)
    {
        var context = (HttpContext)state;
        string? encoded = context.Response.Headers[MessageHeader];
        if (encoded is { Length: > Echo.MaxChars })
        {
            string message = Uri.UnescapeDataString(encoded);
            foreach (string? value in (string?[])[context.Request.ContentType, context.Request.Headers[EncodingHeader]])
            {
                if (value is { Length: > Echo.MaxChars })
                {
                    message = message.Replace(value, Echo.Bounded(value), StringComparison.Ordinal);
                }
            }

            context.Response.Headers[MessageHeader] = PercentEncode(message);
        }

        return Task.CompletedTask;
    }

    /// <summary>grpc-message's encoding (gRPC over HTTP/2): printable ASCII but <c>%</c> as itself, every other UTF-8 byte as <c>%XX</c>.</summary>
    private static string PercentEncode(string message)
    {
        var encoded = new StringBuilder(message.Length);
        foreach (byte b in Encoding.UTF8.GetBytes(message))
        {
            if (b is >= 0x20 and <= 0x7E and not (byte)'%')
            {
                encoded.Append((char)b);
            }
            else
            {
                encoded.Append('%').Append(b.ToString("X2", System.Globalization.CultureInfo.InvariantCulture));
            }
        }

        return encoded.ToString();
    }
}
