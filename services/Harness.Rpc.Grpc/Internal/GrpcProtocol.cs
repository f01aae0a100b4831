using System.Buffers;
using System.Globalization;
using System.Text;
using Microsoft.AspNetCore.Http;

namespace Harness.Rpc.Grpc.Internal;

/// <summary>Names and encodings from doc/PROTOCOL-HTTP2.md in grpc/grpc.</summary>
internal static class GrpcProtocol
{
    public const string ContentType = "application/grpc";
    public const string StatusHeader = "grpc-status";
    public const string MessageHeader = "grpc-message";
    public const string TimeoutHeader = "grpc-timeout";
    public const string EncodingHeader = "grpc-encoding";
    public const string AcceptEncodingHeader = "grpc-accept-encoding";
    public const string IdentityEncoding = "identity";

    /// <summary>Compressed-Flag plus the four-byte big-endian Message-Length.</summary>
    public const int FrameHeaderSize = 5;

    /// <summary>Timeouts are at most eight digits (PROTOCOL-HTTP2.md); 99999999 seconds is the largest.</summary>
    public const long MaxTimeoutTicks = 99_999_999 * TimeSpan.TicksPerSecond;

    private const long MaxTimeoutValue = 99_999_999;

    // Cached so writing a status allocates nothing; indexed by the code's value.
    private static readonly string[] StatusStrings = CreateStatusStrings();

    // Space and VCHAR except '%' stay as they are (Percent-Byte-Unencoded).
    private static readonly SearchValues<char> Unreserved = SearchValues.Create(
        " !\"#$&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~");

    /// <summary>
    /// True for <c>application/grpc</c> and its variants (<c>+proto</c>, <c>; params</c>), as
    /// PROTOCOL-HTTP2.md's Content-Type rule and grpc-dotnet accept them.
    /// </summary>
    public static bool IsGrpcContentType(string? contentType)
    {
        if (contentType is null || !contentType.StartsWith(ContentType, StringComparison.OrdinalIgnoreCase))
        {
            return false;
        }

        if (contentType.Length == ContentType.Length)
        {
            return true;
        }

        var next = contentType[ContentType.Length];
        return next is '+' or ';';
    }

    public static string ToHeaderValue(GrpcStatusCode code)
    {
        var value = (int)code;
        return (uint)value < (uint)StatusStrings.Length ? StatusStrings[value] : value.ToString(CultureInfo.InvariantCulture);
    }

    /// <summary>Writes a status where a trailers-only response carries it (headers) or after the body (trailers).</summary>
    public static void SetStatus(HttpResponse response, GrpcStatusCode code, string? detail)
    {
        if (response.HasStarted)
        {
            response.AppendTrailer(StatusHeader, ToHeaderValue(code));
            if (!string.IsNullOrEmpty(detail))
            {
                response.AppendTrailer(MessageHeader, PercentEncode(detail));
            }
        }
        else
        {
            var headers = response.Headers;
            headers[StatusHeader] = ToHeaderValue(code);
            if (!string.IsNullOrEmpty(detail))
            {
                headers[MessageHeader] = PercentEncode(detail);
            }
        }
    }

    /// <summary>Parses a <c>grpc-timeout</c> value: up to eight digits and one unit letter.</summary>
    public static bool TryParseTimeout(string? value, out TimeSpan timeout)
    {
        timeout = TimeSpan.Zero;
        if (value is null || value.Length < 2 || value.Length > 9)
        {
            return false;
        }

        if (!long.TryParse(value.AsSpan(0, value.Length - 1), NumberStyles.None, CultureInfo.InvariantCulture, out var amount))
        {
            return false;
        }

        long ticks;
        switch (value[^1])
        {
            case 'H': ticks = amount * TimeSpan.TicksPerHour; break;
            case 'M': ticks = amount * TimeSpan.TicksPerMinute; break;
            case 'S': ticks = amount * TimeSpan.TicksPerSecond; break;
            case 'm': ticks = amount * TimeSpan.TicksPerMillisecond; break;
            case 'u': ticks = amount * TimeSpan.TicksPerMicrosecond; break;
            case 'n': ticks = amount / TimeSpan.NanosecondsPerTick; break;
            default: return false;
        }

        // Capped like grpc-dotnet's, so a deadline always fits in a DateTime.
        timeout = TimeSpan.FromTicks(Math.Min(ticks, MaxTimeoutTicks));
        return true;
    }

    /// <summary>
    /// Encodes a timeout in milliseconds, or in the first coarser unit whose value fits in eight digits.
    /// Values round up so the server never sees a shorter deadline than the client's.
    /// </summary>
    public static string FormatTimeout(TimeSpan timeout)
    {
        var ticks = Math.Max(timeout.Ticks, 1);
        ReadOnlySpan<long> ticksPerUnit = [TimeSpan.TicksPerMillisecond, TimeSpan.TicksPerSecond, TimeSpan.TicksPerMinute, TimeSpan.TicksPerHour];
        ReadOnlySpan<char> units = ['m', 'S', 'M', 'H'];
        for (var i = 0; i < ticksPerUnit.Length; i++)
        {
            var amount = (ticks / ticksPerUnit[i]) + (ticks % ticksPerUnit[i] == 0 ? 0 : 1);
            if (amount <= MaxTimeoutValue)
            {
                return string.Create(CultureInfo.InvariantCulture, $"{amount}{units[i]}");
            }
        }

        return string.Create(CultureInfo.InvariantCulture, $"{MaxTimeoutValue}H");
    }

    /// <summary>Percent-encodes a status message as UTF-8 (Percent-Encoded in PROTOCOL-HTTP2.md).</summary>
    public static string PercentEncode(string value)
    {
        var firstReserved = value.AsSpan().IndexOfAnyExcept(Unreserved);
        if (firstReserved < 0)
        {
            return value;
        }

        var utf8 = Encoding.UTF8.GetBytes(value);
        var builder = new StringBuilder(utf8.Length + 16);
        foreach (var b in utf8)
        {
            if (b < 0x80 && Unreserved.Contains((char)b))
            {
                builder.Append((char)b);
            }
            else
            {
                builder.Append('%').Append(HexUpper(b >> 4)).Append(HexUpper(b & 0xF));
            }
        }

        return builder.ToString();
    }

    /// <summary>
    /// Decodes a percent-encoded status message. Broken escapes are kept as they are, which the spec allows:
    /// a status message must never be thrown away for being malformed.
    /// </summary>
    public static string PercentDecode(string value)
    {
        if (!value.Contains('%'))
        {
            return value;
        }

        var bytes = new byte[value.Length];
        var count = 0;
        for (var i = 0; i < value.Length; i++)
        {
            var c = value[i];
            if (c == '%' && i + 2 < value.Length
                && TryHex(value[i + 1], out var high) && TryHex(value[i + 2], out var low))
            {
                bytes[count++] = (byte)((high << 4) | low);
                i += 2;
            }
            else
            {
                // Header values are ASCII; anything else is replaced rather than failing the call.
                bytes[count++] = c < 0x80 ? (byte)c : (byte)'?';
            }
        }

        return Encoding.UTF8.GetString(bytes, 0, count);
    }

    private static char HexUpper(int nibble) => (char)(nibble < 10 ? '0' + nibble : 'A' + nibble - 10);

    private static bool TryHex(char c, out int value)
    {
        value = c switch
        {
            >= '0' and <= '9' => c - '0',
            >= 'A' and <= 'F' => c - 'A' + 10,
            >= 'a' and <= 'f' => c - 'a' + 10,
            _ => -1,
        };
        return value >= 0;
    }

    private static string[] CreateStatusStrings()
    {
        var strings = new string[(int)GrpcStatusCode.Unauthenticated + 1];
        for (var i = 0; i < strings.Length; i++)
        {
            strings[i] = i.ToString(CultureInfo.InvariantCulture);
        }

        return strings;
    }
}
