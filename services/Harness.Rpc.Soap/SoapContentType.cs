using System.Net.Http.Headers;
using System.Text;

namespace Harness.Rpc.Soap;

/// <summary>
/// The request content types CoreWCF 1.9.1's text encoder for SOAP 1.1 takes, and the encoding each one gives the XML
/// reader: ported from <c>MessageEncoder.IsContentTypeSupported</c>, <c>TextMessageEncoderFactory.GetEncodingFromContentType</c>
/// and the charset table <c>TextEncoderDefaults.CharSetEncodings</c> (CoreWCF.Primitives, Channels/). Only utf-8,
/// utf-16LE and utf-16BE name an encoding; <c>utf-16</c> and no charset leave it to the reader to detect (a byte-order
/// mark or an XML declaration); any other charset is refused.
/// </summary>
internal static class SoapContentType
{
    // The encoder's own content type, what CoreWCF compares against first.
    private const string Supported = SoapNames.ContentType;

    // TextEncoderDefaults.CharSetEncodings (whose last entry, no charset, is handled by the callers): a null
    // encoding means "detect it".
    private static readonly (string CharSet, Encoding? Encoding)[] CharSets =
    [
        ("utf-8", Encoding.UTF8),
        ("utf-16LE", Encoding.Unicode),
        ("utf-16BE", Encoding.BigEndianUnicode),
        ("utf-16", null),
    ];

    // TextMessageEncoderFactory's content-encoding map for SOAP 1.1: the exact strings it recognises without parsing.
    private static readonly (string ContentType, Encoding Encoding)[] KnownContentTypes =
    [
        ("text/xml; charset=utf-8", Encoding.UTF8),
        ("text/xml; charset=utf-16LE", Encoding.Unicode),
        ("text/xml; charset=utf-16BE", Encoding.BigEndianUnicode),
    ];

    /// <summary>
    /// Whether the encoder takes <paramref name="contentType"/> (a 415 when not): <c>text/xml</c>, any letter case, with a
    /// charset of the table or none. A missing content type counts as <c>application/octet-stream</c>, as CoreWCF's
    /// <c>HttpInput.ContentType</c> has it.
    /// </summary>
    public static bool IsSupported(string? contentType)
    {
        if (string.IsNullOrEmpty(contentType))
        {
            return false;
        }

        if (contentType == Supported
            || (contentType.Length > Supported.Length && contentType.StartsWith(Supported, StringComparison.Ordinal) && contentType[Supported.Length] == ';')
            || (contentType.StartsWith(Supported, StringComparison.OrdinalIgnoreCase) && EndsWithLinearWhitespaceOrParameter(contentType)))
        {
            return true;
        }

        // Parameters the fast paths did not expect: parse, then the media type and the charset must both be known.
        return MediaTypeHeaderValue.TryParse(contentType, out MediaTypeHeaderValue? parsed)
            && SoapNames.MediaType.Equals(parsed.MediaType, StringComparison.OrdinalIgnoreCase)
            && IsCharSetSupported(parsed.CharSet);
    }

    /// <summary>
    /// The encoding the reader is given for a supported <paramref name="contentType"/>: null to detect it. False when the
    /// charset cannot be made out after all, which CoreWCF raises as a ProtocolException once the body is read (a 400).
    /// </summary>
    public static bool TryGetEncoding(string contentType, out Encoding? encoding)
    {
        foreach ((string known, Encoding knownEncoding) in KnownContentTypes)
        {
            if (known == contentType)
            {
                encoding = knownEncoding;
                return true;
            }
        }

        encoding = null;
        int semicolon = contentType.IndexOf(';', StringComparison.Ordinal);
        if (semicolon < 0)
        {
            return true;
        }

        int valueStart = FindCharSetValue(contentType, semicolon);
        if (valueStart >= 0)
        {
            int end = contentType.IndexOf(';', valueStart);
            string charSet = end < 0 ? contentType[valueStart..] : contentType[valueStart..end];
            if (charSet.Length > 2 && charSet[0] == '"' && charSet[^1] == '"')
            {
                charSet = charSet[1..^1];
            }

            if (TryGetCharSetEncoding(charSet, out encoding))
            {
                return true;
            }
        }

        // The quick heuristics failed: fall back to the header parser, as CoreWCF does.
        return MediaTypeHeaderValue.TryParse(contentType, out MediaTypeHeaderValue? parsed) && TryGetCharSetEncoding(parsed.CharSet, out encoding);
    }

    /// <summary>Where the charset's value starts (after <c>charset=</c>), or -1; the parameter must follow a ';' and only whitespace.</summary>
    private static int FindCharSetValue(string contentType, int semicolon)
    {
        if (contentType.Length > semicolon + 11 && contentType[semicolon + 2] == 'c'
            && string.Compare("charset=", 0, contentType, semicolon + 2, 8, StringComparison.OrdinalIgnoreCase) == 0)
        {
            return semicolon + 10;
        }

        int parameter = contentType.IndexOf("charset=", semicolon + 1, StringComparison.OrdinalIgnoreCase);
        if (parameter < 0)
        {
            return -1;
        }

        for (int i = parameter - 1; i >= semicolon; i--)
        {
            char ch = contentType[i];
            if (ch == ';')
            {
                return parameter + 8;
            }

            if (ch == '\n')
            {
                if (i == semicolon || contentType[i - 1] != '\r')
                {
                    return -1;
                }

                i--;
                continue;
            }

            if (ch is not (' ' or '\t'))
            {
                return -1;
            }
        }

        return -1;
    }

    /// <summary>After the supported prefix: the end, a ';', or linear whitespace ([CRLF] then spaces or tabs) before either.</summary>
    private static bool EndsWithLinearWhitespaceOrParameter(string contentType)
    {
        int i = Supported.Length;
        if (contentType.Length == i)
        {
            return true;
        }

        char ch = contentType[i];
        if (ch == ';')
        {
            return true;
        }

        if (ch == '\r' && contentType.Length > i + 1 && contentType[i + 1] == '\n')
        {
            i += 2;
            if (i == contentType.Length)
            {
                return false;
            }

            ch = contentType[i];
        }

        if (ch is ' ' or '\t')
        {
            i++;
            while (i < contentType.Length)
            {
                ch = contentType[i];
                if (ch is not (' ' or '\t'))
                {
                    break;
                }

                i++;
            }
        }

        return ch == ';' || i == contentType.Length;
    }

    /// <summary>The text encoder's IsCharSetSupported: none given, or one of the table, quoted or not.</summary>
    private static bool IsCharSetSupported(string? charSet) =>
        charSet is null
        || IsKnownCharSet(charSet, out _)
        || (charSet.Length > 2 && charSet[0] == '"' && charSet[^1] == '"' && IsKnownCharSet(charSet[1..^1], out _));

    /// <summary>TextEncoderDefaults.TryGetEncoding for a given charset: one of the table, any letter case.</summary>
    private static bool IsKnownCharSet(string charSet, out Encoding? encoding)
    {
        foreach ((string known, Encoding? knownEncoding) in CharSets)
        {
            if (known.Equals(charSet, StringComparison.OrdinalIgnoreCase))
            {
                encoding = knownEncoding;
                return true;
            }
        }

        encoding = null;
        return false;
    }

    /// <summary>TextMessageEncoderFactory.TryGetEncodingFromCharSet: none (or empty) means detect; otherwise the table's.</summary>
    private static bool TryGetCharSetEncoding(string? charSet, out Encoding? encoding)
    {
        encoding = null;
        return string.IsNullOrEmpty(charSet) || IsKnownCharSet(charSet, out encoding);
    }
}
