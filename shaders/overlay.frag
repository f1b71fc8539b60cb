// overlay.frag - a solid color, or text: the color times the glyph's
// coverage from the font atlas.

in vec2 v_uv;
in vec4 v_color;

uniform sampler2D u_atlas;

out vec4 o_color;

void main()
{
    float cover = v_uv.x < 0.0 ? 1.0 : texture(u_atlas, v_uv).r;
    o_color = vec4(v_color.rgb, v_color.a * cover);
}
